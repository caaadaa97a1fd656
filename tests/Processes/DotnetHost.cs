namespace WebSerialization.Tests.Processes;

/// <summary>
/// The <c>dotnet</c> to start child processes with: the one running this process (<c>dotnet test</c> and
/// <c>dotnet run</c> pass its path to their children), else the one on PATH.
/// </summary>
public static class DotnetHost
{
    public static string Path => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";
}
