using System.Text;

namespace WebSerialization.Load.Reports;

/// <summary>The capacity mode's table and chart: the highest arrival rate each scenario sustained (every step up to it had no
/// failed or dropped request and a p99 under the bound), its figures at that rate, and the step that missed.</summary>
public static class CapacityReport
{
    public const string ChartFileName = "capacity.svg";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static ReportTable Table(IReadOnlyList<CapacityResult> capacities) => new(
        ["Scenario", "Format", "Sustained requests/s", "p50 ms", "p99 ms", "MB/s", "Server MB alloc/request", "Server CPU ms/request", "Client CPU busy %", "Steps", "Stopped at"],
        2,
        [
            .. capacities.Select(capacity =>
            {
                var sustained = capacity.Sustained;
                var latency = sustained?.Latency;
                return (IReadOnlyList<string>)
                [
                    capacity.Scenario.Name,
                    capacity.Scenario.FormatKey,
                    capacity.SustainedRate.ToString("0.#", Invariant),
                    ConsoleReport.Format(latency?.P50),
                    ConsoleReport.Format(latency?.P99),
                    ConsoleReport.Format(sustained?.MegabytesPerSecond),
                    ConsoleReport.Format(sustained?.ServerCost?.AllocatedBytesPerRequest / Units.BytesPerMegabyte, "0.000"),
                    ConsoleReport.Format(sustained?.ServerCpuMillisecondsPerRequest, "0.00"),
                    ConsoleReport.Format(sustained?.ClientBusy * 100, "0"),
                    capacity.Steps.Count.ToString(Invariant),
                    capacity.Stop,
                ];
            }),
        ])
    {
        EndNumericColumn = 10,
    };

    public static string Legend(LoadOptions options) =>
        string.Create(Invariant, $"Open-model steps from {options.RateStart:0.#} requests/s, each {options.RateFactor:0.##} times the last, up to {options.RateMax:0.#}/s, ")
        + string.Create(Invariant, $"{options.Duration.TotalSeconds:0.#} s each after one {options.WarmUp.TotalSeconds:0.#} s warm-up; a step passes with no failed or dropped request ")
        + string.Create(Invariant, $"(at most {InjectLoad.MaxInFlight} in flight) and a p99 at most {options.P99Bound.TotalMilliseconds:0} ms. ")
        + (options.StepAttempts > 1 ? string.Create(Invariant, $"A step that misses is run again at the same rate, up to {options.StepAttempts} runs; the rate passes when one of them does, and the search ends at the first rate that misses every run. ") : string.Empty)
        + "Latency runs from each request's intended start, so a server that falls behind its arrivals shows its queue. "
        + "Sustained is the last step that passed; its latency, MB/s, allocation and CPU are shown: the server process's CPU time per request, and the share of "
        + "its own CPUs the load client kept busy (near 100 %, the client rather than the server may have set the limit). Percentiles from an HdrHistogram (3 significant digits).";

    /// <summary>The sustained rate of each format, one panel per kind of request and member count; null when nothing ran.</summary>
    public static BarChart? Chart(IReadOnlyList<CapacityResult> capacities)
    {
        BarChartPanel[] panels =
        [
            .. capacities
                .Where(capacity => capacity.Scenario.Subject is not null)
                .GroupBy(capacity => (capacity.Scenario.Subject!.Operation, capacity.Scenario.Subject.MemberCount))
                .Select(group => new BarChartPanel(
                    string.Create(Invariant, $"{group.Key.Operation.Key}, {group.Key.MemberCount:N0} members"),
                    [
                        .. group.Select(capacity => new BarChartBar(
                            capacity.Scenario.Subject!.Format.Key,
                            FormatCharts.Colour(capacity.Scenario.Subject.Format),
                            capacity.SustainedRate,
                            [],
                            string.Create(Invariant, $"{capacity.SustainedRate:0.#}/s (p99 {ConsoleReport.Format(capacity.Sustained?.Latency?.P99)} ms)"))),
                    ])),
        ];
        return panels.Length == 0
            ? null
            : new BarChart(ChartFileName, "Capacity per format: the highest arrival rate sustained", "requests per second", "format", "sustained rate", [], panels);
    }

    /// <summary>The capacity section of a Markdown summary: legend, table and chart.</summary>
    public static string Markdown(IReadOnlyList<CapacityResult> capacities, LoadOptions options, string? chartPath)
    {
        var md = new StringBuilder();
        md.AppendLine("## Capacity").AppendLine();
        md.AppendLine(Legend(options)).AppendLine();
        md.Append(Table(capacities).ToMarkdown());

        if (chartPath is not null)
            md.AppendLine().AppendLine(Invariant, $"![Capacity per format]({chartPath})");

        return md.ToString();
    }
}
