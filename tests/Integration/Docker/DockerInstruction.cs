namespace WebSerialization.IntegrationTests.Docker;

/// <summary>One Dockerfile instruction, continuation lines joined: <c>COPY src/ src/</c> is ("COPY", "src/ src/").</summary>
public sealed record DockerInstruction(string Keyword, string Arguments, int Line);
