using WebSerialization.Models;

namespace WebSerialization.Load.Tests;

public sealed class ReadmeResultsTests
{
    private static IReadOnlyList<ScenarioResult> MillionMemberDownloads(int copies) =>
    [
        .. WireFormatDescriptor.All.Select((format, index) =>
            SampleRun.Ran(new LoadScenario(ScenarioKind.Download, format, 1_000_000), copies, 100.0 / (1 << index), 400.0 / (1 << index))),
    ];

    [Fact]
    public void RendersOneRowPerFormatFromTheOneCopyMillionMemberDownloads()
    {
        var table = ReadmeResults.Render(SampleRun.Description, [.. MillionMemberDownloads(1), .. MillionMemberDownloads(4)], "downloads.md");

        Assert.NotNull(table);
        Assert.Contains("| json | 100.0 | 400 | 0.02 | +40 |", table, StringComparison.Ordinal);
        Assert.Contains("| binary | 12.5 | 50 | 0.02 | +40 |", table, StringComparison.Ordinal);
        Assert.Contains("[docs/results/downloads.md](docs/results/downloads.md) (2026-11-21 11:57 UTC)", table, StringComparison.Ordinal);
    }

    [Fact]
    public void RendersNothingWithoutAMillionMemberDownloadOfEveryFormat()
    {
        Assert.Null(ReadmeResults.Render(SampleRun.Description, SampleRun.Results(), "downloads.md"));
        Assert.Null(ReadmeResults.Render(SampleRun.Description, [.. MillionMemberDownloads(1).Skip(1)], "downloads.md"));
    }

    [Fact]
    public void ReplacesOnlyTheTextBetweenTheMarkers()
    {
        var readme = $"# Title\n\n{ReadmeResults.Start}\nold table\n{ReadmeResults.End}\n\nAfter.\n";

        var updated = ReadmeResults.Replace(readme, "new table\n");

        Assert.Equal($"# Title\n\n{ReadmeResults.Start}{Environment.NewLine}new table\n{ReadmeResults.End}\n\nAfter.\n", updated);
        Assert.Null(ReadmeResults.Replace("# Title without the table\n", "new table\n"));
    }
}
