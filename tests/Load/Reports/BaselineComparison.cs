namespace WebSerialization.Load.Reports;

/// <summary>The MVC baseline beside the streamed endpoint: for every baseline scenario that ran, the streamed scenario of the
/// same kind, format, member count and copies, as a table (latency, time to first byte, server allocation per request,
/// peak working set) and as a chart of allocation per request. Both show the summary's figures
/// (<see cref="RepeatedScenario.Figures"/>: medians over repetitions).</summary>
public static class BaselineComparison
{
    public const string AllocationFileName = "allocation-stock-vs-streamed.svg";

    public const string Title = "Stock MVC formatters beside the streamed endpoint";

    public const string Legend =
        "Stock is /api/mvc/organization: MVC negotiates, and the stock formatters (System.Text.Json's, and MessagePack-CSharp and protobuf-net "
        + "writing the whole body into the response before one flush, or reading the whole request body before decoding) do the work. "
        + "Streamed is /api/organization on the same server. Latency is time to last byte, TTFB time to the first body byte; "
        + "allocation is the server's dotnet.gc.heap.total_allocated (its /metrics) per request served; Peak WS is the server's largest working set "
        + "during the scenario, with how far above its idle working set in brackets. \"-\" where the streamed scenario did not run. MB = 2^20 bytes.";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    // The palette's vermilion for stock and bluish green for streamed, in every panel.
    private const int StockColor = 5;
    private const int StreamedColor = 2;

    /// <summary>One row per baseline scenario and copies that ran, with its streamed counterpart; null when no baseline scenario ran.</summary>
    public static ReportTable? Table(IReadOnlyList<ScenarioResult> results)
    {
        var pairs = Pairs(results);
        if (pairs.Count == 0)
            return null;

        IReadOnlyList<string>[] rows =
        [
            .. pairs.Select(pair =>
            {
                var (stock, streamed) = (pair.Stock.Figures, pair.Streamed?.Figures);
                return (IReadOnlyList<string>)
                [
                    pair.Stock.Scenario.Subject!.Operation.Key,
                    pair.Stock.Scenario.Subject.Format.Key,
                    pair.Stock.Scenario.Subject.MemberCount.ToString("N0", Invariant),
                    pair.Stock.Copies.ToString(Invariant),
                    Number(stock.P50, "0.0"),
                    Number(streamed?.P50, "0.0"),
                    Number(stock.TimeToFirstByteP50, "0.0"),
                    Number(streamed?.TimeToFirstByteP50, "0.0"),
                    Number(stock.AllocatedBytesPerRequest / Units.BytesPerMegabyte, "0.000"),
                    Number(streamed?.AllocatedBytesPerRequest / Units.BytesPerMegabyte, "0.000"),
                    WorkingSet(stock),
                    WorkingSet(streamed),
                ];
            }),
        ];
        return new ReportTable(
            [
                "Request", "Format", "Members", "Copies", "p50 ms stock", "p50 ms streamed", "TTFB p50 ms stock", "TTFB p50 ms streamed",
                "Server MB alloc/request stock", "Server MB alloc/request streamed", "Peak WS MB stock (over idle)", "Peak WS MB streamed (over idle)",
            ],
            2,
            rows);
    }

    /// <summary>Server allocation per request, a stock and a streamed bar per format, one panel per kind of request, member count
    /// and copies; null when no baseline scenario measured its allocation.</summary>
    public static BarChart? AllocationChart(IReadOnlyList<ScenarioResult> results)
    {
        BarChartPanel[] panels =
        [
            .. Pairs(results)
                .Where(pair => pair.Stock.Figures.AllocatedBytesPerRequest is not null)
                .GroupBy(pair => (pair.Stock.Scenario.Subject!.Operation, pair.Stock.Scenario.Subject.MemberCount, pair.Stock.Copies))
                .Select(group => new BarChartPanel(
                    string.Create(Invariant, $"{group.Key.Operation.Key}, {group.Key.MemberCount:N0} members, {group.Key.Copies} {(group.Key.Copies == 1 ? "copy" : "copies")}"),
                    [.. group.SelectMany(pair => new[] { Bar(pair.Stock, "stock", StockColor), pair.Streamed is { } streamed ? Bar(streamed, "streamed", StreamedColor) : null }).OfType<BarChartBar>()])),
        ];
        return panels.Length == 0
            ? null
            : new BarChart(AllocationFileName, "Server allocation per request: stock MVC formatters vs streamed", "allocated per request, MB (2^20 bytes)", "format", "allocated per request", [], panels);
    }

    private static List<(RepeatedScenario Stock, RepeatedScenario? Streamed)> Pairs(IReadOnlyList<ScenarioResult> results)
    {
        var ran = RepeatedScenario.Group(results).Where(scenario => scenario.Outcome == ScenarioOutcome.Ran).ToArray();
        return [.. ran
            .Where(scenario => scenario.Scenario.Subject?.Baseline == true)
            .Select(stock => (stock, ran.FirstOrDefault(streamed => streamed.Scenario.Subject == stock.Scenario.Subject! with { Baseline = false }
                && streamed.Copies == stock.Copies)))];
    }

    private static BarChartBar? Bar(RepeatedScenario scenario, string endpoint, int color) =>
        scenario.Figures.AllocatedBytesPerRequest is { } bytes
            ? new BarChartBar($"{scenario.Scenario.Subject!.Format.Key} {endpoint}", color, bytes / Units.BytesPerMegabyte, [], string.Create(Invariant, $"{bytes / Units.BytesPerMegabyte:0.000} MB"))
            : null;

    private static string Number(double? value, string format) => value is { } number ? number.ToString(format, Invariant) : "-";

    private static string WorkingSet(ScenarioFigures? figures) => figures is { PeakWorkingSet: > 0 }
        ? string.Create(Invariant, $"{figures.PeakWorkingSet / Units.BytesPerMegabyte:0} ({figures.WorkingSetRaise / Units.BytesPerMegabyte:+0;-0})")
        : "-";
}
