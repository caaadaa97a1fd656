using static WebSerialization.Load.Tests.MarkdownReportTests;

namespace WebSerialization.Load.Tests;

public sealed class ReadmeResultsTests
{
    private const string Placement = "the server on CPU 0, the client on CPU 1";

    private static IReadOnlyList<ScenarioResult> MillionMemberDownloads(int copies) =>
        [.. WireFormat.All.Select((format, index) => SampleRun.Ran(HttpScenarios.Download(format, 1_000_000), copies, 100.0 / (1 << index), 400.0 / (1 << index)))];

    [Fact]
    public void RendersOneRowPerFormatFromTheOneCopyMillionMemberDownloads()
    {
        var table = ReadmeResults.Render([.. MillionMemberDownloads(1), .. MillionMemberDownloads(4)], "downloads.md", Placement);
        Assert.NotNull(table);
        ContainsAll(table, "| json | 100.0 | 400 | 0.02 | +40 |", "| binary | 12.5 | 50 | 0.02 | +40 |", "[docs/results/downloads.md](docs/results/downloads.md), which has the command, the date",
            "one client on loopback, the server on CPU 0, the client on CPU 1, time to last byte");
        Assert.DoesNotContain("UTC", table, StringComparison.Ordinal);
    }

    [Fact]
    public void RendersNothingWithoutAMillionMemberDownloadOfEveryFormat()
    {
        Assert.Null(ReadmeResults.Render(SampleRun.Results(), "downloads.md", Placement));
        Assert.Null(ReadmeResults.Render([.. MillionMemberDownloads(1).Skip(1)], "downloads.md", Placement));
    }

    [Fact]
    public async Task OnlyTheDownloadsRunRewritesTheReadme()
    {
        using var root = new TemporaryFolder("readme-results-");
        var readme = Path.Combine(root.Path, "README.md");
        await File.WriteAllTextAsync(readme, $"{ReadmeResults.Start}\nold\n{ReadmeResults.End}\n");

        Assert.Null(await ReadmeResults.UpdateAsync(root.Path, MillionMemberDownloads(1), "uploads.md", Placement));
        Assert.Contains("old", await File.ReadAllTextAsync(readme), StringComparison.Ordinal);
        Assert.Equal(readme, await ReadmeResults.UpdateAsync(root.Path, MillionMemberDownloads(1), ReadmeResults.FileName, Placement));
        Assert.DoesNotContain("old", await File.ReadAllTextAsync(readme), StringComparison.Ordinal);
    }

    [Fact]
    public void ReplacesOnlyTheTextBetweenTheMarkers()
    {
        var updated = ReadmeResults.Replace($"# Title\n\n{ReadmeResults.Start}\nold table\n{ReadmeResults.End}\n\nAfter.\n", "new table\n");
        Assert.Equal($"# Title\n\n{ReadmeResults.Start}{Environment.NewLine}new table\n{ReadmeResults.End}\n\nAfter.\n", updated);
        Assert.Null(ReadmeResults.Replace("# Title without the table\n", "new table\n"));
    }
}

/// <summary>A folder of its own under the temporary folder, deleted with what it holds at the end of the test.</summary>
internal sealed class TemporaryFolder(string prefix) : IDisposable
{
    public string Path { get; } = Directory.CreateTempSubdirectory(prefix).FullName;

    public void Dispose() => Directory.Delete(Path, recursive: true);
}
