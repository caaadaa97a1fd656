namespace WebSerialization.Load.Reports;

/// <summary>The run's results as charts that set the formats side by side: response size, and latency with its tail. Where the
/// summary table has a row per scenario, these have a bar per format, one panel per member count (and copies). They
/// show the summary's figures: for a scenario run several times, the medians of its runs, and the p50 of the fastest
/// and the slowest run as a whisker.</summary>
public static class FormatCharts
{
    public const string SizesFileName = "sizes.svg";
    public const string LatencyFileName = "latency.svg";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The charts this run has figures for; none when no scenario ran.</summary>
    public static IReadOnlyList<BarChart> For(IReadOnlyList<ScenarioResult> results) =>
        [.. new[] { Sizes(results), Latency(results), BaselineComparison.AllocationChart(results) }.OfType<BarChart>()];

    /// <summary>The mean response body of each format's download, one panel per member count; null when no download ran.</summary>
    public static BarChart? Sizes(IReadOnlyList<ScenarioResult> results)
    {
        BarChartPanel[] panels =
        [
            .. Measured(results)
                .Where(result => result.Scenario.Subject!.Operation == ScenarioOperation.Download && result.Figures.ResponseBytes is not null)
                .GroupBy(result => result.Scenario.Subject!.MemberCount)
                .Select(group => new BarChartPanel(
                    Members(group.Key),
                    [
                        // The body does not depend on the copies: one bar per format, from its first run.
                        .. group.DistinctBy(result => result.Scenario.Subject!.Format.Key).Select(result =>
                        {
                            var megabytes = result.Figures.ResponseBytes!.Value / Units.BytesPerMegabyte;
                            return Bar(result, megabytes, [], string.Create(Invariant, $"{megabytes:0.00} MB"));
                        }),
                    ])),
        ];
        return panels.Length == 0
            ? null
            : new BarChart(SizesFileName, "Response size per format (downloads)", "response body, MB (2^20 bytes)", "format", "mean response body", [], panels);
    }

    /// <summary>Each format's latency (time to last byte): p50 as the bar, p95 and p99 as marks, and for a scenario run several
    /// times the lowest and highest run's p50 as a whisker; one panel per kind of request, member count and copies.
    /// Null when no scenario has a successful request.</summary>
    public static BarChart? Latency(IReadOnlyList<ScenarioResult> results)
    {
        var measured = Measured(results).Where(result => result.Figures.P50 is not null).ToArray();
        var repeated = measured.Any(result => result.IsRepeated);
        BarChartPanel[] panels =
        [
            .. measured
                .GroupBy(result => (result.Scenario.Subject!.Operation, result.Scenario.Subject.MemberCount, result.Copies, result.Repetitions[0].Rate))
                .Select(group => new BarChartPanel(
                    $"{group.Key.Operation.Title}, {Members(group.Key.MemberCount)}, "
                    + (group.Key.Rate is { } rate ? string.Create(Invariant, $"{rate:0.#} requests/s") : $"{group.Key.Copies.ToString(Invariant)} {(group.Key.Copies == 1 ? "copy" : "copies")}"),
                    [
                        .. group.Select(result =>
                        {
                            var figures = result.Figures;
                            var (p50, p95, p99) = (figures.P50!.Value, figures.P95!.Value, figures.P99!.Value);
                            var range = result.IsRepeated ? result.P50Spread : null;
                            var rangeText = range is { } spread ? $" ({Milliseconds(spread.Low)}-{Milliseconds(spread.High)})" : string.Empty;
                            return Bar(result, p50, [p95, p99], $"p50 {Milliseconds(p50)}{rangeText}, p95 {Milliseconds(p95)}, p99 {Milliseconds(p99)} ms") with { Range = range };
                        }),
                    ])),
        ];
        return panels.Length == 0 ? null
            : repeated ? new BarChart(
                LatencyFileName,
                "Latency per format: time to last byte, medians of the runs: p50 with p95 and p99 marks, and the p50 of the fastest and slowest run",
                "time to last byte, ms",
                "format",
                "p50",
                ["p95", "p99"],
                panels,
                "p50 range of the runs")
            : new BarChart(LatencyFileName, "Latency per format: time to last byte, p50 with p95 and p99 marks", "time to last byte, ms", "format", "p50", ["p95", "p99"], panels);
    }

    // The scenarios that ran, each with all its repetitions; a scenario with no subject has no format to chart.
    private static IEnumerable<RepeatedScenario> Measured(IReadOnlyList<ScenarioResult> results) =>
        RepeatedScenario.Group(results).Where(result => result.Outcome == ScenarioOutcome.Ran && result.Scenario.Subject is not null);

    private static BarChartBar Bar(RepeatedScenario result, double value, IReadOnlyList<double> marks, string valueText) =>
        new(result.Scenario.Label, Colour(result.Scenario.Subject!.Format), value, marks, valueText);

    /// <summary>A format's colour: its row's place in the table of formats (a copy of a row, as tests make, keeps its row's).</summary>
    public static int Colour(WireFormat format) => WireFormat.All.ToList().FindIndex(row => row.Codec == format.Codec);

    private static string Members(int count) => string.Create(Invariant, $"{count:N0} members");

    // Small latencies (a 10,000-member download takes a few ms) keep a decimal; large ones do not need it.
    private static string Milliseconds(double value) => value.ToString(value < 10 ? "0.0" : "0", Invariant);
}
