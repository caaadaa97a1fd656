namespace WebSerialization.Load.Cpus;

/// <summary>
/// A run under both layouts (<c>--cpu-layout split,shared</c>) side by side: per scenario and load, the p50 and the
/// requests per second with the server on its own CPUs and with every CPU shared with the client, and per capacity
/// search the rate sustained each way; the ratio says what sharing the CPUs did. Also the target that a server on its
/// own CPUs downloads the million-member binary organization within <see cref="MaxSplitToSharedRatio"/> of a server
/// sharing every CPU.
/// </summary>
public static class CpuLayoutComparison
{
    public const string Title = "Split CPUs beside shared CPUs";

    /// <summary>The most the split layout's 1,000,000-member binary download p50 may be over the shared layout's.</summary>
    public const double MaxSplitToSharedRatio = 1.5;

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>One row per scenario and load measured under both layouts (capacity steps left out: the capacity table has them); null when none was.</summary>
    public static ReportTable? Table(IReadOnlyList<ScenarioResult> results)
    {
        var rows = Pairs(results.Where(result => result.Outcome == ScenarioOutcome.Ran))
            .Select(pair => (IReadOnlyList<string>)
            [
                pair.Split.Scenario.Name,
                pair.Split.Load,
                ConsoleReport.Format(pair.Split.Figures.P50, "0"),
                ConsoleReport.Format(pair.Shared.Figures.P50, "0"),
                ConsoleReport.Ratio(pair.Shared.Figures.P50, pair.Split.Figures.P50),
                ConsoleReport.Format(RequestsPerSecond(pair.Split), "0"),
                ConsoleReport.Format(RequestsPerSecond(pair.Shared), "0"),
                ConsoleReport.Ratio(RequestsPerSecond(pair.Shared), RequestsPerSecond(pair.Split)),
                ConsoleReport.Format(Median(pair.Split, result => result.ServerCpuMillisecondsPerRequest), "0.00"),
                ConsoleReport.Format(Median(pair.Shared, result => result.ServerCpuMillisecondsPerRequest), "0.00"),
                ConsoleReport.Format(Median(pair.Split, result => result.ClientBusy) * 100, "0"),
            ])
            .ToArray();
        return rows.Length == 0 ? null : new ReportTable(
            ["Scenario", "Load", "p50 ms split", "p50 ms shared", "p50 shared / split", "requests/s split", "requests/s shared", "requests/s shared / split",
                "server CPU ms/request split", "server CPU ms/request shared", "client CPU busy % split"],
            2,
            rows);
    }

    /// <summary>One row per capacity search made under both layouts; null when none was.</summary>
    public static ReportTable? CapacityTable(IReadOnlyList<CapacityResult> capacities)
    {
        var rows = capacities.Where(capacity => capacity.Layout == CpuLayout.Split)
            .Select(split => (Split: split, Shared: capacities.FirstOrDefault(other => other.Layout == CpuLayout.Shared && other.Scenario == split.Scenario)))
            .Where(pair => pair.Shared is not null)
            .Select(pair => (IReadOnlyList<string>)
            [
                pair.Split.Scenario.Name,
                pair.Split.SustainedRate.ToString("0.#", Invariant),
                pair.Shared!.SustainedRate.ToString("0.#", Invariant),
                ConsoleReport.Ratio(pair.Shared.SustainedRate, pair.Split.SustainedRate),
                ConsoleReport.Format(pair.Split.Sustained?.Latency?.P99),
                ConsoleReport.Format(pair.Shared.Sustained?.Latency?.P99),
                ConsoleReport.Format(pair.Split.Sustained?.ServerCpuMillisecondsPerRequest, "0.00"),
                ConsoleReport.Format(pair.Shared.Sustained?.ServerCpuMillisecondsPerRequest, "0.00"),
                ConsoleReport.Format(pair.Split.Sustained?.ClientBusy * 100, "0"),
            ])
            .ToArray();
        return rows.Length == 0 ? null : new ReportTable(
            ["Scenario", "sustained requests/s split", "sustained requests/s shared", "sustained shared / split", "p99 ms split", "p99 ms shared",
                "server CPU ms/request split", "server CPU ms/request shared", "client CPU busy % split"],
            1,
            rows);
    }

    /// <summary>What the two tables show, with the two layouts of this run in words.</summary>
    public static string Legend(CpuPlan plan) =>
        $"Each scenario and load ran under both layouts, one after the other, each on a fresh server unless the run shares one. {ConsoleReport.Capitalized(plan.Describe(CpuLayout.Split))}. "
            + $"{ConsoleReport.Capitalized(plan.Describe(CpuLayout.Shared))}. Figures are medians over the runs of each (--repeat). "
            + "A p50 ratio above 1 means the download or upload took longer when the server shared its CPUs with the load client; a requests/s or sustained-rate ratio "
            + "above 1 means sharing let it serve more (the server had more CPUs), below 1 that the client's own work cost the server more than the extra CPUs gave. "
            + "Server CPU is the server process's user and system time over the measured phase per request: what a request cost it, however many CPUs it had. "
            + "Client CPU busy is the share of its own CPUs the runner used while split: near 100 %, the client rather than the server set the pace.";

    /// <summary>The section's legend and tables, or null when the run measured one layout only (or nothing under both).</summary>
    public static ReportSection? Section(IReadOnlyList<ScenarioResult> results, IReadOnlyList<CapacityResult> capacities, CpuPlan plan)
    {
        IReadOnlyList<ReportTable> tables = [.. new[] { Table(results), CapacityTable(capacities) }.OfType<ReportTable>()];
        return plan.Compares && tables.Count > 0 ? new ReportSection(Title, Legend(plan), tables) : null;
    }

    /// <summary>
    /// The target on the split layout's 1,000,000-member binary download (closed model, fewest copies) against the shared
    /// layout's; nothing when the run did not measure both.
    /// </summary>
    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results, CpuPlan plan)
    {
        if (!plan.Compares || plan.Server is null)
        {
            return [];
        }

        var target = string.Create(Invariant, $"With the server on its own {plan.Server.Describe()} (split), the {DownloadTargets.FullMemberCount:N0}-member binary download's p50 is at most {MaxSplitToSharedRatio}x that of a server sharing {plan.Available!.Describe()} with the client")
            + (plan.Server.Count == 1 ? " (one core beside all of them)" : string.Empty);
        var pair = Pairs(results.Where(result => result.Rate is null && result.Outcome == ScenarioOutcome.Ran
                && result.Scenario.Subject is { } subject && subject.IsStreamed(ScenarioOperation.Download)
                && subject.Format == WireFormat.Binary && subject.MemberCount == DownloadTargets.FullMemberCount))
            .OrderBy(pair => pair.Split.Copies)
            .FirstOrDefault();
        if (pair.Split is null)
        {
            return [new TargetVerdict(target, "not run", TargetVerdict.NotRun)];
        }

        if (pair.Split.Figures.P50 is not { } split || pair.Shared.Figures.P50 is not { } shared || pair.Split.HasFailures || pair.Shared.HasFailures)
        {
            return [new TargetVerdict(target, "a run without successful requests, or with failed ones", TargetVerdict.Miss)];
        }

        var ratio = split / shared;
        return [new TargetVerdict(
            target,
            string.Create(Invariant, $"x{pair.Split.Copies}: split {split:0} ms / shared {shared:0} ms = {ratio:0.00}x"),
            ratio <= MaxSplitToSharedRatio ? TargetVerdict.Pass : TargetVerdict.Miss)];
    }

    // Each scenario and load measured under the split layout with its shared counterpart.
    private static IEnumerable<(RepeatedScenario Split, RepeatedScenario Shared)> Pairs(IEnumerable<ScenarioResult> results)
    {
        var groups = RepeatedScenario.Group(results);
        foreach (var split in groups.Where(group => group.Repetitions[0].Layout == CpuLayout.Split))
        {
            var shared = groups.FirstOrDefault(group => group.Repetitions[0].Layout == CpuLayout.Shared && group.Scenario == split.Scenario
                && group.Copies == split.Copies && group.Repetitions[0].Rate == split.Repetitions[0].Rate);
            if (shared is not null)
            {
                yield return (split, shared);
            }
        }
    }

    private static double? RequestsPerSecond(RepeatedScenario scenario) => Median(scenario, repetition => repetition.RequestsPerSecond);

    private static double? Median(RepeatedScenario scenario, Func<ScenarioResult, double?> figure) =>
        ScenarioFigures.Median(scenario.Repetitions.Select(figure));
}
