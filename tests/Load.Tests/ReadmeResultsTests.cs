using WebSerialization.Models;

namespace WebSerialization.Load.Tests;

public sealed class ReadmeResultsTests
{
    private static IReadOnlyList<ScenarioResult> MillionMemberDownloads(int copies) =>
    [
        .. WireFormat.All.Select((format, index) =>
            SampleRun.Ran(HttpScenarios.Download(format, 1_000_000), copies, 100.0 / (1 << index), 400.0 / (1 << index))),
    ];

    [Fact]
    public void RendersOneRowPerFormatFromTheOneCopyMillionMemberDownloads()
    {
        var table = ReadmeResults.Render([.. MillionMemberDownloads(1), .. MillionMemberDownloads(4)], "downloads.md", "the server on CPU 0, the client on CPU 1");

        Assert.NotNull(table);
        Assert.Contains("| json | 100.0 | 400 | 0.02 | +40 |", table, StringComparison.Ordinal);
        Assert.Contains("| binary | 12.5 | 50 | 0.02 | +40 |", table, StringComparison.Ordinal);
        Assert.Contains("[docs/results/downloads.md](docs/results/downloads.md), which has the command, the date", table, StringComparison.Ordinal);
        Assert.Contains("one client on loopback, the server on CPU 0, the client on CPU 1, time to last byte", table, StringComparison.Ordinal);
        Assert.DoesNotContain("UTC", table, StringComparison.Ordinal);
    }

    [Fact]
    public void RendersNothingWithoutAMillionMemberDownloadOfEveryFormat()
    {
        Assert.Null(ReadmeResults.Render(SampleRun.Results(), "downloads.md", "the server on CPU 0, the client on CPU 1"));
        Assert.Null(ReadmeResults.Render([.. MillionMemberDownloads(1).Skip(1)], "downloads.md", "the server on CPU 0, the client on CPU 1"));
    }

    [Fact]
    public async Task OnlyTheDownloadsRunRewritesTheReadme()
    {
        var root = Directory.CreateTempSubdirectory("readme-results-").FullName;
        try
        {
            var readme = Path.Combine(root, "README.md");
            await File.WriteAllTextAsync(readme, $"{ReadmeResults.Start}\nold\n{ReadmeResults.End}\n");
            var results = MillionMemberDownloads(1);

            Assert.Null(await ReadmeResults.UpdateAsync(root, results, "uploads.md", "the server on CPU 0, the client on CPU 1"));
            Assert.Contains("old", await File.ReadAllTextAsync(readme), StringComparison.Ordinal);

            Assert.Equal(readme, await ReadmeResults.UpdateAsync(root, results, ReadmeResults.FileName, "the server on CPU 0, the client on CPU 1"));
            Assert.DoesNotContain("old", await File.ReadAllTextAsync(readme), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
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
