# The API in a container: build and publish with the .NET SDK, run on the ASP.NET Core runtime as a non-root user.
#   docker build -t webserialization .
#   docker run --rm -p 8080:8080 -p 8081:8081 webserialization   # API on http://localhost:8080 (Swagger UI at /swagger), gRPC (h2c) on 8081
# docs/docker.md says how to configure it. tests/Integration/DockerImageTests.cs builds this file with a Docker engine
# and checks the image as a user would; where no registry is reachable, deploy/stand-in-images/build.sh makes local
# stand-ins for the two base images first.

# Build: the SDK that global.json names (10.0.401; its runtime is 10.0.12, the runtime image below).
FROM mcr.microsoft.com/dotnet/sdk:10.0.401 AS build
WORKDIR /src

# Restore from the project files alone first, so that a change to the code reuses the restored layer.
COPY global.json Directory.Build.props Directory.Packages.props .editorconfig ./
COPY src/Models/WebSerialization.Models.csproj src/Models/
COPY src/Api/WebSerialization.Api.csproj src/Api/
RUN dotnet restore src/Api/WebSerialization.Api.csproj

COPY src/ src/
RUN dotnet publish src/Api/WebSerialization.Api.csproj -c Release -o /app --no-restore -p:UseAppHost=false

# Run: the ASP.NET Core runtime only, no SDK, as the image's non-root `app` user.
FROM mcr.microsoft.com/dotnet/aspnet:10.0.12 AS runtime
WORKDIR /app
COPY --from=build /app ./

# Production: JSON console logs, diagnostics off, limits on (src/Api/appsettings*.json; docs/configuration.md).
# The host stops within shutdownTimeoutSeconds (8 s in appsettings.json), inside `docker stop`'s default 10 s.
ENV ASPNETCORE_HTTP_PORTS=8080 \
    ASPNETCORE_ENVIRONMENT=Production
EXPOSE 8080 8081
USER $APP_UID

# Exec form, so that the app is PID 1 and receives docker stop's SIGTERM itself.
ENTRYPOINT ["dotnet", "WebSerialization.Api.dll"]
