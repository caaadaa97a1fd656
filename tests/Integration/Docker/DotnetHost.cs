namespace WebSerialization.IntegrationTests.Docker;

/// <summary>The <c>dotnet</c> that runs these tests (dotnet test passes its path to child processes), else the one on PATH.</summary>
public static class DotnetHost
{
    public static string Path => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";
}
