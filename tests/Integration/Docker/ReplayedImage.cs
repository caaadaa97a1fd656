namespace WebSerialization.IntegrationTests.Docker;

/// <summary>
/// What replaying a Dockerfile left behind: the final stage's file system in a host folder, and what the image
/// would run there (entry point, working directory, environment, exposed ports, user).
/// </summary>
public sealed record ReplayedImage(
    string RootDirectory,
    string WorkingDirectory,
    IReadOnlyList<string> Entrypoint,
    IReadOnlyDictionary<string, string> Environment,
    IReadOnlyList<string> ExposedPorts,
    string? User);
