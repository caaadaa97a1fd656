using System.Text;
using WebSerialization.Load.Cpus;

namespace WebSerialization.Load.Reports;

/// <summary>What the Markdown and the HTML reports both say, as plain text: each lays it out in its own markup, so the two
/// cannot disagree on a figure.</summary>
public static class ReportContent
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>What the columns of <see cref="Summary"/> mean.</summary>
    public const string SummaryLegend =
        "OK and Failed count measured requests (failed warm-up requests are added to Failed). Latency is time to last byte; TTFB is time to the first body byte; "
        + "MB/s is body bytes sent plus received per second of the measured phase, all copies together. Server MB alloc/request is the difference of the server's "
        + "dotnet.gc.heap.total_allocated over the requests it served (http.server.request.duration's count), both from its /metrics, less what the scrapes themselves allocated. "
        + "Server CPU ms/request is the server process's user and system time over the measured phase (from /proc) per request sent; - when the runner did not start the server. "
        + "Latency is from each request's intended start: in the open model (a rate instead of copies) a request sent late counts its lateness. Percentiles come from an HdrHistogram (3 significant digits). "
        + "Peak WS is the server's largest working set during the scenario (warm-up included), and in brackets how far above its idle working set at the start of the run. "
        + "MB = 2^20 bytes.";

    /// <summary>What the columns of <see cref="Summary"/> mean, with the repetitions' columns when the run has them.</summary>
    public static string Legend(IReadOnlyList<ScenarioResult> results) =>
        RepeatedScenario.Group(results).Any(scenario => scenario.IsRepeated) ? SummaryLegend + " " + RepetitionLegend : SummaryLegend;

    private const string RepetitionLegend =
        "Runs is how many times the scenario ran (--repeat). Over several runs, OK and Failed are totals, Peak WS is that of the run that raised it most, "
        + "every other figure is the median of the runs' own figures (the mean of the middle two when their number is even), "
        + "and p50 range is the lowest and the highest run's p50; each scenario's report has every run's figures.";

    /// <summary>The run's summary: one row per scenario and copies that was not skipped, its repetitions put together (see
    /// <see cref="ScenarioFigures.Aggregate"/>). When any scenario ran more than once, a Runs and a p50 range column.</summary>
    public static ReportTable Summary(IReadOnlyList<ScenarioResult> results)
    {
        var scenarios = NotSkipped(results);
        var repeated = scenarios.Any(scenario => scenario.IsRepeated);
        return new ReportTable(
            ["Scenario", "Format", LoadColumn(scenarios), .. repeated ? ["Runs"] : Array.Empty<string>(), .. FigureColumns(repeated), "Seed size MB", "Seed serialize ms"],
            2,
            [.. scenarios.Select(scenario =>
            {
                var seed = scenario.Scenario.Subject is { MemberCount: SeedArticleFigures.MemberCount } subject ? SeedArticleFigures.For(subject.Format) : null;
                return (IReadOnlyList<string>)
                [
                    scenario.Scenario.Name,
                    scenario.Scenario.FormatKey,
                    Load(scenario),
                    .. repeated ? [scenario.Repetitions.Count.ToString(Invariant)] : Array.Empty<string>(),
                    .. FigureCells(scenario.Figures, repeated ? scenario.P50Spread?.ToString("0") ?? "-" : null),
                    ConsoleReport.Format(seed?.SizeMegabytes, "0.00"),
                    ConsoleReport.Format(seed?.SerializeMilliseconds, "0"),
                ];
            })]);
    }

    /// <summary>The summary's columns a reader compares on a terminal: scenario, copies or rate, OK/failed, response size,
    /// p50/p99, MB/s, server MB per request and the working set's rise; the files keep every column of <see cref="Summary"/>.</summary>
    public static ReportTable ScreenSummary(IReadOnlyList<ScenarioResult> results)
    {
        var scenarios = NotSkipped(results);
        return new ReportTable(
            ["Scenario", LoadColumn(scenarios), "OK/failed", "Size MB", "p50 ms", "p99 ms", "MB/s", "Server MB/req", "WS rise MB"],
            1,
            [.. scenarios.Select(scenario => (IReadOnlyList<string>)
            [
                scenario.Scenario.Name,
                Load(scenario),
                string.Create(Invariant, $"{scenario.Figures.Succeeded}/{scenario.Figures.Failed}"),
                Megabytes(scenario.Figures.ResponseBytes, "0.00"),
                ConsoleReport.Format(scenario.Figures.P50, "0"),
                ConsoleReport.Format(scenario.Figures.P99, "0"),
                ConsoleReport.Format(scenario.Figures.MegabytesPerSecond),
                Megabytes(scenario.Figures.AllocatedBytesPerRequest, "0.000"),
                scenario.Figures.PeakWorkingSet > 0 ? string.Create(Invariant, $"{scenario.Figures.WorkingSetRaise / Units.BytesPerMegabyte:+0;-0}") : "-",
            ])]);
    }

    /// <summary>A scenario's steps (<see cref="Step.Run"/>), one row each with its own latency from its own histogram.</summary>
    public static ReportTable Steps(ScenarioResult result) => new(
        ["Step", "OK", "Failed", "p50 ms", "p95 ms", "p99 ms", "Received MB mean", "Sent MB mean"],
        1,
        [.. result.Steps.Select(step => (IReadOnlyList<string>)
        [
            step.Name,
            step.Succeeded.ToString(Invariant),
            step.Failed.ToString(Invariant),
            ConsoleReport.Format(step.Latency?.P50),
            ConsoleReport.Format(step.Latency?.P95),
            ConsoleReport.Format(step.Latency?.P99),
            Megabytes(step.ResponseBytes, "0.000"),
            Megabytes(step.RequestBytes, "0.000"),
        ])]);

    /// <summary>A repeated scenario's runs, one row each, and the row of their medians that the summary shows.</summary>
    public static ReportTable Repetitions(RepeatedScenario scenario) => new(
        ["Run", .. FigureColumns(withP50Range: false)],
        1,
        [
            .. scenario.Repetitions.Select(repetition => (IReadOnlyList<string>)[repetition.Repetition.ToString(Invariant), .. FigureCells(ScenarioFigures.Of(repetition), null)]),
            ["all runs", .. FigureCells(scenario.Figures, null)],
        ]);

    /// <summary>What a repeated scenario's report shows, after its request line: how many runs, on what server, their p50 spread.</summary>
    public static string RepetitionsIntro(RepeatedScenario scenario, RunDescription run)
    {
        var spread = scenario.P50Spread is { } p50 ? $" Their p50 ranged {p50.ToString("0.0")} ms." : string.Empty;
        return string.Create(Invariant, $"{scenario.Repetitions.Count} runs, {run.RepetitionServer}. ")
            + "The table has each run's figures, then the summary's: the medians of the runs' figures (OK and Failed: totals; peak working set: the run that raised it most)."
            + spread;
    }

    /// <summary>How a scenario ran, after its request line: copies, phases, date and machine.</summary>
    public static string Conditions(ScenarioResult result, RunDescription run)
    {
        var options = run.Options;
        var load = result.Rate is { } rate
            ? string.Create(Invariant, $"{rate:0.#} requests/s (open model: latency from each request's intended start; {result.LateRequests} sent more than {InjectLoad.LateAfter.TotalMilliseconds:0} ms late, {result.DroppedRequests} dropped with {InjectLoad.MaxInFlight} in flight)")
            : string.Create(Invariant, $"copies {result.Copies} (closed model)");
        return load + string.Create(Invariant, $", warm-up {options.WarmUp.TotalSeconds:0.#} s ")
            + string.Create(Invariant, $"({result.WarmUpRequests} requests, {result.WarmUpFailures} failed, not measured), duration {options.Duration.TotalSeconds:0.#} s ")
            + string.Create(Invariant, $"(the measured phase took {result.Elapsed.TotalSeconds:0.00} s: requests in flight at the end finish). {run.StartedAt:yyyy-MM-dd HH:mm} UTC, {run.Machine}; CPU layout {CpuPlan.Name(result.Layout)}.");
    }

    /// <summary>A scenario's time to first and to last byte.</summary>
    public static ReportTable Distributions(ScenarioResult result) => new(
        ["Measure (ms)", "n", "min", "mean", "p50", "p95", "p99", "max"],
        1,
        [Distribution("Time to first byte", result.TimeToFirstByte), Distribution("Time to last byte (latency)", result.Latency)]);

    /// <summary>Everything else measured in a scenario: requests, bodies, throughput, the server's cost and working set, the seed's figures.</summary>
    public static ReportTable Facts(ScenarioResult result)
    {
        var cost = result.ServerCost;
        var rows = new List<IReadOnlyList<string>>
        {
            Fact("Requests", $"{result.Succeeded.Count()} succeeded, {result.FailedCount} failed"),
            Fact("Response body, mean", $"{Megabytes(result.ResponseBytes, "0.000")} MB ({ConsoleReport.Format(result.ResponseBytes, "N0")} bytes)"),
            Fact("Request body", $"{Megabytes(result.RequestBytes, "0.000")} MB"),
            Fact("Throughput", $"{ConsoleReport.Format(result.MegabytesPerSecond)} MB/s of bodies (sent + received), {ConsoleReport.Format(result.RequestsPerSecond, "0.00")} requests/s"),
        };
        if (cost is null)
        {
            rows.Add(Fact("Server counters", $"not available (the server's /metrics is off)"));
        }
        else
        {
            rows.Add(Fact("Server: requests served", $"{cost.RequestsServed} (the client sent {result.Samples.Count})"));
            rows.Add(Fact("Server: allocated per request", $"{Megabytes(cost.AllocatedBytesPerRequest, "0.0000")} MB ({ConsoleReport.Format(cost.AllocatedBytesPerRequest, "N0")} bytes); ",
                $"{Megabytes(cost.AllocatedBytes, "0.0")} MB in all, after subtracting {cost.Scrapes} /metrics scrapes of {cost.ScrapeBytes:N0} bytes each"));
            rows.Add(Fact("Server: GCs during the measured phase", $"gen0 {cost.Gen0Collections}, gen1 {cost.Gen1Collections}, gen2 {cost.Gen2Collections} (each in its highest generation); pauses {cost.PauseMilliseconds:0.0} ms"));
        }

        if (result.ServerCpuMillisecondsPerRequest is { } serverCpu)
            rows.Add(Fact("Server CPU", $"{serverCpu:0.00} ms per request ({result.ServerCpuTime!.Value.TotalSeconds:0.00} s of user and system time over the measured phase, from /proc)"));

        if (result.ClientBusy is { } busy)
            rows.Add(Fact("Load client CPU", $"{busy * 100:0} % of its {result.ClientCpuCount} CPU{(result.ClientCpuCount == 1 ? string.Empty : "s")} busy during the measured phase"));

        if (result.Rate is { } rate)
            rows.Add(Fact("Open model", $"{rate:0.#} requests/s due; {result.LateRequests} sent more than {InjectLoad.LateAfter.TotalMilliseconds:0} ms late (their lateness counts in their latency), ", $"{result.DroppedRequests} dropped (due while {InjectLoad.MaxInFlight} were in flight; counted as failed)"));

        if (result.PeakWorkingSet > 0)
            rows.Add(Fact("Server working set", $"idle at run start {Megabytes(result.BaselineWorkingSet)} MB, at scenario start {Megabytes(result.StartWorkingSet)} MB, ", $"peak {Megabytes(result.PeakWorkingSet)} MB ({result.WorkingSetRaise / Units.BytesPerMegabyte:+0.0;-0.0} MB over idle); {result.PeakMethod}"));

        if (result.Scenario.Subject is { MemberCount: SeedArticleFigures.MemberCount } subject)
        {
            var seed = SeedArticleFigures.For(subject.Format);
            rows.Add(Fact($"Seed article ({seed.Serializer})", $"{seed.SizeMegabytes:0.00} MB, serialized in {seed.SerializeMilliseconds:0} ms (console app, byte[] in memory)"));
        }

        return new ReportTable([string.Empty, string.Empty], 2, rows);
    }

    /// <summary>A scenario's distinct failures, most frequent first: <c>3 x error</c>.</summary>
    public static IReadOnlyList<string> FailureCounts(ScenarioResult result) =>
        [.. result.FailureReasons.Select(reason => string.Create(Invariant, $"{reason.Count} x {reason.Error}"))];

    /// <summary>The scenarios skipped because their endpoint is not on the server, with the reason.</summary>
    public static IReadOnlyList<string> Skipped(IReadOnlyList<ScenarioResult> results) =>
        [.. RepeatedScenario.Group(results).Where(scenario => scenario.Outcome == ScenarioOutcome.Skipped).Select(scenario => $"{scenario.ReportName}: {scenario.Repetitions[0].Note}")];

    /// <summary>The scenarios with a failure, each with why: the note of one that could not run, then its failed requests; one
    /// line per repetition that failed.</summary>
    public static IReadOnlyList<string> Failures(IReadOnlyList<ScenarioResult> results) =>
        [.. RepeatedScenario.Group(results).SelectMany(scenario => scenario.Repetitions.Where(result => result.HasFailures).Select(result => $"{scenario.NameOf(result)}: {string.Join("; ", (result.Note is null ? [] : new[] { result.Note }).Concat(FailureCounts(result)))}"))];

    private static RepeatedScenario[] NotSkipped(IReadOnlyList<ScenarioResult> results) =>
        [.. RepeatedScenario.Group(results).Where(scenario => scenario.Outcome != ScenarioOutcome.Skipped)];

    private static string LoadColumn(RepeatedScenario[] scenarios) => scenarios.Any(scenario => scenario.Repetitions[0].Rate is not null) ? "Copies or rate" : "Copies";

    private static string Load(RepeatedScenario scenario) =>
        scenario.Repetitions[0].Rate is { } rate ? string.Create(Invariant, $"{rate:0.#}/s") : scenario.Copies.ToString(Invariant);

    private static string[] FigureColumns(bool withP50Range) =>
    [
        "OK", "Failed", "Response MB", "TTFB p50 ms", "p50 ms", .. withP50Range ? ["p50 range ms"] : Array.Empty<string>(), "p95 ms", "p99 ms", "MB/s",
        "Server MB alloc/request", "Server CPU ms/request", "Gen2 GCs", "Peak WS MB (over idle)",
    ];

    private static string[] FigureCells(ScenarioFigures figures, string? p50Range) =>
    [
        figures.Succeeded.ToString(Invariant),
        figures.Failed.ToString(Invariant),
        Megabytes(figures.ResponseBytes, "0.00"),
        ConsoleReport.Format(figures.TimeToFirstByteP50, "0"),
        ConsoleReport.Format(figures.P50, "0"),
        .. p50Range is null ? Array.Empty<string>() : [p50Range],
        ConsoleReport.Format(figures.P95, "0"),
        ConsoleReport.Format(figures.P99, "0"),
        ConsoleReport.Format(figures.MegabytesPerSecond),
        Megabytes(figures.AllocatedBytesPerRequest, "0.000"),
        ConsoleReport.Format(figures.ServerCpuMillisecondsPerRequest, "0.00"),
        ConsoleReport.Format(figures.Gen2Collections, "0.#"),
        figures.PeakWorkingSet > 0 ? string.Create(Invariant, $"{Megabytes(figures.PeakWorkingSet)} ({figures.WorkingSetRaise / Units.BytesPerMegabyte:+0;-0})") : "-",
    ];

    private static string[] Fact(string name, params FormattableString[] value) => [name, string.Concat(value.Select(part => part.ToString(Invariant)))];

    private static string[] Distribution(string name, LatencyDistribution? distribution) => distribution is null
        ? [name, "0", "-", "-", "-", "-", "-", "-"]
        : [name, distribution.Count.ToString(Invariant), .. new[] { distribution.Min, distribution.Mean, distribution.P50, distribution.P95, distribution.P99, distribution.Max }
            .Select(milliseconds => milliseconds.ToString("0.0", Invariant))];

    private static string Megabytes(double? bytes, string format = "0.0") => ConsoleReport.Format(bytes / Units.BytesPerMegabyte, format);
}

/// <summary>A table of the reports as text cells, built once and laid out by the Markdown and the HTML report, so the two show the same figures.</summary>
/// <param name="FirstNumericColumn">Columns from this index on hold figures (right-aligned); the column count when none do.</param>
public sealed record ReportTable(IReadOnlyList<string> Columns, int FirstNumericColumn, IReadOnlyList<IReadOnlyList<string>> Rows)
{
    /// <summary>Columns from this index on hold text again (left-aligned); the column count when figures run to the end.</summary>
    public int EndNumericColumn { get; init; } = int.MaxValue;

    public bool IsNumeric(int column) => column >= FirstNumericColumn && column < EndNumericColumn;

    /// <summary>The table as GitHub Markdown, figures right-aligned; every report writes its tables through this.</summary>
    public string ToMarkdown()
    {
        var md = new StringBuilder();
        AppendRow(md, Columns);
        AppendRow(md, [.. Columns.Select((_, column) => IsNumeric(column) ? "---:" : "---")]);
        foreach (var row in Rows)
            AppendRow(md, row);

        return md.ToString();
    }

    private static void AppendRow(StringBuilder md, IEnumerable<string> cells) => md.Append("| ").AppendJoin(" | ", cells).AppendLine(" |");
}
