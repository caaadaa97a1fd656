using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using WebSerialization.IntegrationTests.Docker;
using WebSerialization.Models;
using WebSerialization.Tests.Support;
using Xunit.Abstractions;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// The Dockerfile, checked the way a machine without a Docker engine can: its own build-stage commands publish the
/// app (replayed from the file, not copied from it), and its entry point runs the result with the image's
/// environment (port 8080, Production), as <c>docker run -p 8080:8080</c> would; <c>docker stop</c> is a SIGTERM
/// followed, 10 s later, by a SIGKILL.
/// </summary>
public sealed partial class DockerfileTests(PublishedImageFixture fixture, ITestOutputHelper output) : IClassFixture<PublishedImageFixture>
{
    private const int ImagePort = 8080;
    private const int ImageGrpcPort = 8081;
    private const string RequestLogCategory = "WebSerialization.Api.Diagnostics.RequestLogMiddleware";
    private static readonly TimeSpan DockerStopGrace = TimeSpan.FromSeconds(10);

    // What the aspnet base image sets for every container; the replay has no base image to inherit it from.
    private static readonly Dictionary<string, string> BaseImageEnvironment = new()
    {
        ["APP_UID"] = "1654",
        ["DOTNET_RUNNING_IN_CONTAINER"] = "true",
    };

    [Fact]
    public void PinsTheSdkOfGlobalJsonAndAnAspNetCoreRuntimeOfTheTargetFramework()
    {
        using var globalJson = JsonDocument.Parse(File.ReadAllText(Path.Combine(fixture.ContextDirectory, "global.json")));
        var sdk = globalJson.RootElement.GetProperty("sdk").GetProperty("version").GetString();
        var targetFramework = TargetFramework().Match(File.ReadAllText(Path.Combine(fixture.ContextDirectory, "Directory.Build.props"))).Groups[1].Value;

        Assert.Equal($"mcr.microsoft.com/dotnet/sdk:{sdk}", fixture.Recipe.Stage("build").BaseImage);
        Assert.Matches($@"^mcr\.microsoft\.com/dotnet/aspnet:{Regex.Escape(targetFramework)}\.\d+$", fixture.Recipe.Final.BaseImage);
    }

    [Fact]
    public void RunsAsTheNonRootAppUserOnPort8080()
    {
        Assert.Equal("$APP_UID", fixture.Image.User);
        Assert.Contains(ImagePort.ToString(CultureInfo.InvariantCulture), fixture.Image.ExposedPorts);
        Assert.Contains(ImageGrpcPort.ToString(CultureInfo.InvariantCulture), fixture.Image.ExposedPorts);
        Assert.Equal(ImagePort.ToString(CultureInfo.InvariantCulture), fixture.Image.Environment["ASPNETCORE_HTTP_PORTS"]);
        Assert.Equal("Production", fixture.Image.Environment["ASPNETCORE_ENVIRONMENT"]);
        Assert.Equal(["dotnet", "WebSerialization.Api.dll"], fixture.Image.Entrypoint);
        Assert.True(File.Exists(Path.Combine(fixture.Image.WorkingDirectory, "WebSerialization.Api.dll")), "The publish did not put the entry point's assembly in the runtime stage's WORKDIR.");
        Assert.True(File.Exists(Path.Combine(fixture.Image.WorkingDirectory, "appsettings.Production.json")), "The Production settings are not in the image.");
        Assert.True(File.Exists(Path.Combine(fixture.Image.WorkingDirectory, "wwwroot", "index.html")), "The page at / is not in the image.");
        Assert.True(File.Exists(Path.Combine(fixture.Image.WorkingDirectory, "wwwroot", "js", "webserialization-binary.mjs")), "The JavaScript binary reader is not in the image.");
    }

    [Theory]
    [InlineData("src/Api/bin/Release/net10.0/WebSerialization.Api.dll")]
    [InlineData("src/Api/obj/project.assets.json")]
    [InlineData("src/Models/obj/Release/net10.0/WebSerialization.Models.dll")]
    [InlineData("tests/Integration/bin/Debug/net10.0/WebSerialization.IntegrationTests.dll")]
    [InlineData("tests/Interop/node_modules/protobufjs/index.js")]
    [InlineData("reports/download.md")]
    [InlineData("TestResults/run.trx")]
    [InlineData("BenchmarkDotNet.Artifacts/results/report.csv")]
    [InlineData(".git/HEAD")]
    public void KeepsBuildOutputsAndReportsOutOfTheBuildContext(string path)
    {
        var ignore = DockerIgnore.Load(Path.Combine(fixture.ContextDirectory, ".dockerignore"));

        Assert.True(ignore.Excludes(path), $"{path} would be sent to docker build.");
    }

    [Theory]
    [InlineData("src/Api/Program.cs")]
    [InlineData("src/Api/appsettings.Production.json")]
    [InlineData("src/Api/wwwroot/index.html")]
    [InlineData("src/Models/WebSerialization.Models.csproj")]
    [InlineData("global.json")]
    [InlineData("Directory.Packages.props")]
    public void KeepsTheSourcesInTheBuildContext(string path)
    {
        var ignore = DockerIgnore.Load(Path.Combine(fixture.ContextDirectory, ".dockerignore"));

        Assert.False(ignore.Excludes(path), $"{path} would be left out of docker build's context.");
    }

    [Fact]
    public async Task ServesHealthSwaggerThePageAndEveryFormatLikeDockerRun()
    {
        var expected = OrganizationGenerator.Create(10);
        var sizes = new Dictionary<string, int>();
        await using (var app = StartImage())
        {
            await app.WaitUntilHealthyAsync();
            foreach (var format in WireFormat.All)
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, "/api/organization?count=10");
                request.Headers.Accept.ParseAdd(format.MediaType);
                using var response = await app.Client.SendAsync(request);
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                Assert.Equal(format.MediaType, response.Content.Headers.ContentType?.MediaType);
                var body = await response.Content.ReadAsByteArrayAsync();
                var (organization, _) = await OrganizationAssert.DecodeAsync(new MemoryStream(body), format);
                OrganizationAssert.Equal(expected, 10, organization);
                sizes[format.Key] = body.Length;
            }

            using (var swagger = await app.Client.GetAsync("/swagger/index.html"))
            {
                Assert.Equal(HttpStatusCode.OK, swagger.StatusCode);
            }

            // The page at /, from the image's WORKDIR, the content root the entry point runs in.
            using (var page = await app.Client.GetAsync("/"))
            {
                Assert.Equal(HttpStatusCode.OK, page.StatusCode);
                Assert.Equal("text/html", page.Content.Headers.ContentType?.MediaType);
            }

            // appsettings.Production.json switches the MVC baseline off.
            using (var baseline = await app.Client.GetAsync("/api/mvc/organization?count=10"))
            {
                Assert.Equal(HttpStatusCode.NotFound, baseline.StatusCode);
            }

            await StopLikeDockerAsync(app);

            var entries = app.LogEntries();
            Assert.Contains(entries, entry => entry.GetProperty("Message").GetString() == "Hosting environment: Production");
            // Production leaves the access line off: a success writes nothing, a refusal writes one Warning line.
            Assert.DoesNotContain(entries, entry => entry.GetProperty("Category").GetString() == RequestLogCategory && entry.GetProperty("EventId").GetInt32() == 1);
            Assert.Single(entries, entry => entry.GetProperty("Category").GetString() == RequestLogCategory
                && entry.GetProperty("EventId").GetInt32() == 3
                && entry.GetProperty("LogLevel").GetString() == "Warning"
                && entry.GetProperty("Message").GetString()!.StartsWith("GET /api/mvc/organization?count=10 404 ", StringComparison.Ordinal));
        }
    }

    [Fact]
    public async Task WritesOneCompactAccessLinePerRequestWhenTheAccessLogIsOn()
    {
        var sizes = new Dictionary<string, int>();
        await using (var app = StartImage(new() { [$"Logging__LogLevel__{RequestLogCategory}"] = "Information" }))
        {
            await app.WaitUntilHealthyAsync();
            foreach (var format in WireFormat.All)
            {
                using var response = await app.Client.GetAsync($"/api/organization?count=10&format={format.Key}");
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                sizes[format.Key] = (await response.Content.ReadAsByteArrayAsync()).Length;
            }

            await StopLikeDockerAsync(app);

            var entries = app.LogEntries();
            foreach (var (key, size) in sizes)
            {
                // One JSON line per request, every field once (in the message) and no scopes.
                var line = Assert.Single(entries, entry => entry.GetProperty("Category").GetString() == RequestLogCategory
                    && entry.GetProperty("EventId").GetInt32() == 1
                    && entry.GetProperty("Message").GetString()!.StartsWith(
                        string.Create(CultureInfo.InvariantCulture, $"GET /api/organization?count=10&format={key} 200 {key} identity {size} bytes in "), StringComparison.Ordinal));
                Assert.False(line.TryGetProperty("State", out _), line.GetRawText());
                Assert.False(line.TryGetProperty("Scopes", out _), line.GetRawText());
            }
        }
    }

    // The image's settings are the correct ones, so nothing at start or stop should read as a problem to an operator
    // (Kestrel warns when declared endpoints override hosting URLs left set; the gRPC endpoints declare them).
    [Fact]
    public async Task StartsAndStopsWithoutAWarning()
    {
        await using var app = StartImage();
        await app.WaitUntilHealthyAsync();
        await StopLikeDockerAsync(app);

        var entries = app.LogEntries();
        Assert.Contains(entries, entry => entry.GetProperty("Message").GetString() == $"Now listening on: http://[::]:{app.BaseAddress.Port}");
        Assert.DoesNotContain(entries, entry => entry.GetProperty("LogLevel").GetString() is "Warning" or "Error" or "Critical");
    }

    [Fact]
    public async Task FinishesADownloadInFlightWhenStopped()
    {
        await using var app = StartImage();
        await app.WaitUntilHealthyAsync();
        using var response = await app.Client.GetAsync("/api/organization?format=binary", HttpCompletionOption.ResponseHeadersRead);
        await using var body = await response.Content.ReadAsStreamAsync();
        var received = new MemoryStream();
        var head = new byte[64 * 1024];
        await body.ReadExactlyAsync(head);
        received.Write(head);

        var stopwatch = Stopwatch.StartNew();
        app.Terminate();
        await body.CopyToAsync(received);
        output.WriteLine($"Read the rest of the download {stopwatch.Elapsed.TotalSeconds:0.00} s after SIGTERM.");

        received.Position = 0;
        var (organization, _) = await OrganizationAssert.DecodeAsync(received, WireFormat.Binary);
        Assert.Equal(OrganizationGenerator.ArticleMemberCount, organization.Members!.Count);
        Assert.True(await app.WaitForExitAsync(DockerStopGrace - stopwatch.Elapsed), $"The app did not exit within {DockerStopGrace.TotalSeconds} s of SIGTERM.\n{app.Transcript()}");
        output.WriteLine($"Exited {stopwatch.Elapsed.TotalSeconds:0.00} s after SIGTERM.");
        AssertStoppedCleanly(app);
    }

    [Fact]
    public async Task StopsWithinDockerStopsGraceWhileAClientStallsADownload()
    {
        await using var app = StartImage();
        await app.WaitUntilHealthyAsync();
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, app.BaseAddress.Port);
        await socket.SendAsync(Encoding.ASCII.GetBytes("GET /api/organization?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
        var buffer = new byte[64 * 1024];
        var read = 0;
        while (read < buffer.Length)
        {
            var n = await socket.ReceiveAsync(buffer.AsMemory(read), SocketFlags.None);
            Assert.NotEqual(0, n);
            read += n;
        }

        // The client now reads nothing more: the download can neither finish nor fail until the server gives up on it.
        await StopLikeDockerAsync(app);

        Assert.True(
            app.LogEntries().Any(entry => entry.GetProperty("Category").GetString() == RequestLogCategory
                && entry.GetProperty("EventId").GetInt32() == 2
                && entry.GetProperty("LogLevel").GetString() == "Warning"
                && entry.GetProperty("Message").GetString()!.StartsWith("GET /api/organization?format=json ", StringComparison.Ordinal)),
            $"The stalled download was not logged as aborted.\n{app.Transcript()}");
    }

    private ImageProcess StartImage(Dictionary<string, string>? settings = null)
    {
        foreach (var line in fixture.ReplayLog)
        {
            output.WriteLine(line);
        }

        var port = ImageProcess.PortLike(ImagePort);
        var overrides = new Dictionary<string, string>(BaseImageEnvironment);
        if (port != ImagePort)
        {
            output.WriteLine($"Port {ImagePort} is taken on this machine, so the app listens on {port} (ASPNETCORE_HTTP_PORTS={port}).");
            overrides["ASPNETCORE_HTTP_PORTS"] = port.ToString(CultureInfo.InvariantCulture);
        }

        var grpcPort = ImageProcess.PortLike(ImageGrpcPort);
        if (grpcPort != ImageGrpcPort)
        {
            output.WriteLine($"Port {ImageGrpcPort} is taken on this machine, so gRPC listens on {grpcPort} (Grpc__Port={grpcPort}).");
            overrides["Grpc__Port"] = grpcPort.ToString(CultureInfo.InvariantCulture);
        }

        foreach (var (name, value) in settings ?? [])
        {
            overrides[name] = value;
        }

        return ImageProcess.Start(fixture.Image, port, overrides);
    }

    private async Task StopLikeDockerAsync(ImageProcess app)
    {
        var stopwatch = Stopwatch.StartNew();
        app.Terminate();
        var exited = await app.WaitForExitAsync(DockerStopGrace);
        output.WriteLine($"Exited {stopwatch.Elapsed.TotalSeconds:0.00} s after SIGTERM.");
        Assert.True(exited, $"The app did not exit within {DockerStopGrace.TotalSeconds} s of SIGTERM, so docker stop would kill it.\n{app.Transcript()}");
        AssertStoppedCleanly(app);
    }

    private static void AssertStoppedCleanly(ImageProcess app)
    {
        Assert.True(app.ExitCode == 0, $"Exit code {app.ExitCode}.\n{app.Transcript()}");
        var errors = app.LogEntries().Where(entry => entry.GetProperty("LogLevel").GetString() is "Error" or "Critical").ToArray();
        Assert.True(errors.Length == 0, "The app logged errors:\n" + string.Join('\n', errors.Select(entry => entry.GetRawText())));
        Assert.Empty(app.Errors);
    }

    [GeneratedRegex("<TargetFramework>net([0-9.]+)</TargetFramework>")]
    private static partial Regex TargetFramework();
}
