namespace WebSerialization.IntegrationTests.Docker;

/// <summary>One build stage: <c>FROM image [AS name]</c> and the instructions up to the next FROM.</summary>
public sealed record DockerStage(string BaseImage, string? Name, IReadOnlyList<DockerInstruction> Instructions)
{
    /// <summary>The stage's instructions with <paramref name="keyword"/>, in order.</summary>
    public IEnumerable<DockerInstruction> All(string keyword) =>
        Instructions.Where(instruction => instruction.Keyword.Equals(keyword, StringComparison.OrdinalIgnoreCase));
}
