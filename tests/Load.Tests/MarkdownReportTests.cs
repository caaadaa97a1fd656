namespace WebSerialization.Load.Tests;

public class MarkdownReportTests
{
    private static readonly IReadOnlyList<ScenarioResult> Results = SampleRun.Results();

    [Fact]
    public void SummaryHasOneRowPerScenarioThatWasNotSkipped()
    {
        var rows = SummaryRows(Summary());
        Assert.Equal(Results.Where(result => result.Outcome != ScenarioOutcome.Skipped).Select(result => result.Scenario.Name), rows.Select(row => row[0]));
        Assert.All(rows, row => Assert.Equal(ReportContent.Summary(Results).Columns.Count, row.Length));
    }

    [Fact]
    public void SummaryRowCarriesTheScenarioFigures()
    {
        var row = SummaryRows(Summary()).Single(row => row[0] == "download-msgpack-1000000");

        // Format, copies, OK, failed, response MB, TTFB p50, p50, p95, p99, MB/s, allocated MB per request, server CPU (not
        // measured here), gen2, peak working set, seed.
        Assert.Equal(["msgpack", "4", "100", "0", "50.00"], row[1..6]);
        Precision.AssertWithin([200, 2000, 3800, 3960], row[6..10].Select(Precision.Number));
        Assert.Equal(["2500.0", "0.019", "-", "1", "340.0 (+40)", "36.91", "681"], row[10..]);
    }

    [Fact]
    public void SummaryRowCarriesTheServersCpuTimePerRequest()
    {
        // 100 requests in 2.5 s of the server's CPU time.
        IReadOnlyList<ScenarioResult> results = [.. Results.Select(result => result.Scenario.Name == "download-msgpack-1000000" ? result with { ServerCpuTime = TimeSpan.FromSeconds(2.5) } : result)];

        var row = SummaryRows(Summary(results: results)).Single(row => row[0] == "download-msgpack-1000000");

        Assert.Equal("25.00", row[ReportContent.Summary(results).Columns.ToList().IndexOf("Server CPU ms/request")]);
    }

    [Fact]
    public void SummaryListsSkippedAndFailedScenariosWithTheirReasons() =>
        ContainsAll(Summary(), "- convert-json-to-protobuf-10000-x1: 404 Not Found", "- upload-binary-10000-x1: 1 x 500 Internal Server Error", "- convert-json-to-binary-10000-x1: the server exited with code 137");

    /// <summary>Asserts that <paramref name="text"/> holds each of <paramref name="parts"/>, naming the first it lacks.</summary>
    internal static void ContainsAll(string text, params string[] parts) => Assert.All(parts, part => Assert.Contains(part, text, StringComparison.Ordinal));

    /// <summary>The summary of <paramref name="results"/> as the runner writes it, with its download targets and charts.</summary>
    internal static string Summary(RunDescription? run = null, IReadOnlyList<ScenarioResult>? results = null)
    {
        results ??= Results;
        return MarkdownReport.Summary(run ?? SampleRun.Description, results, DownloadTargets.Evaluate(results), ending: null, FormatCharts.For(results));
    }

    internal static string[][] SummaryRows(string summary) =>
    [
        .. summary.Split('\n')
            .SkipWhile(line => !line.StartsWith("| Scenario |", StringComparison.Ordinal))
            .Skip(2)
            .TakeWhile(line => line.StartsWith('|'))
            .Select(line => line.Trim().Trim('|').Split('|').Select(cell => cell.Trim()).ToArray()),
    ];
}
