namespace WebSerialization.Tests.Processes;

// The dotnet to start child processes with: the one running this process (dotnet test and
// dotnet run pass its path to their children), else the one on PATH.
public static class DotnetHost
{
    public static string Path => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";
}
