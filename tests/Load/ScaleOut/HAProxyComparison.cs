using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.ScaleOut;

/// <summary>
/// A <c>--through-haproxy</c> run's two routes side by side: per scenario and load, the p50, the p99 and the MB/s
/// straight from replica 1 and through HAProxy in front of the replicas, each with the ratio of HAProxy's figure to
/// the straight one. The target on these figures is <see cref="HAProxyTargets"/>'.
/// </summary>
public static class HAProxyComparison
{
    public const string Title = "Through HAProxy beside straight from a replica";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>One row per scenario and load measured both ways; null when none was.</summary>
    public static ReportTable? Table(IReadOnlyList<ScenarioResult> results)
    {
        var rows = Pairs(results.Where(result => result.Outcome == ScenarioOutcome.Ran))
            .Select(pair => (IReadOnlyList<string>)
            [
                pair.Straight.Scenario.Name,
                pair.Straight.Load,
                ConsoleReport.Format(pair.Straight.Figures.P50),
                ConsoleReport.Format(pair.Through.Figures.P50),
                ConsoleReport.Ratio(pair.Through.Figures.P50, pair.Straight.Figures.P50),
                ConsoleReport.Format(pair.Straight.Figures.P99),
                ConsoleReport.Format(pair.Through.Figures.P99),
                ConsoleReport.Ratio(pair.Through.Figures.P99, pair.Straight.Figures.P99),
                ConsoleReport.Format(pair.Straight.Figures.MegabytesPerSecond, "0.0"),
                ConsoleReport.Format(pair.Through.Figures.MegabytesPerSecond, "0.0"),
                ConsoleReport.Ratio(pair.Through.Figures.MegabytesPerSecond, pair.Straight.Figures.MegabytesPerSecond),
            ])
            .ToArray();
        return rows.Length == 0 ? null : new ReportTable(
            ["Scenario", "Load", "p50 ms straight", "p50 ms through HAProxy", "p50 HAProxy / straight", "p99 ms straight", "p99 ms through HAProxy", "p99 HAProxy / straight",
                "MB/s straight", "MB/s through HAProxy", "MB/s HAProxy / straight"],
            2,
            rows);
    }

    /// <summary>What the table shows, with where this run's processes were.</summary>
    public static string Legend(CpuPlan plan) =>
        $"Each scenario and load ran straight from replica 1 and through HAProxy in front of the {HAProxyTopology.ReplicaCount} replicas, one right after the other "
            + "(straight first in odd repetitions, HAProxy first in even ones), on the same processes for the whole run. "
            + $"{ConsoleReport.Capitalized(Placement(plan))}. Figures are medians over the runs of each (--repeat); latency is to the last byte. "
            + "Through HAProxy, requests are spread over the replicas by least connections; straight, they all reach replica 1. "
            + "A p50 or p99 ratio above 1 is the time HAProxy added; an MB/s ratio below 1 the throughput it cost. "
            + "The summary above is straight from replica 1: server figures cannot be read through HAProxy, whose /metrics answer from whichever replica a request reaches.";

    /// <summary>The section's legend and table, or null when the run measured nothing both ways.</summary>
    public static ReportSection? Section(IReadOnlyList<ScenarioResult> results, CpuPlan plan) =>
        Table(results) is { } table ? new ReportSection(Title, Legend(plan), [table]) : null;

    /// <summary>Where the replicas, HAProxy and the load client run under the plan's one layout, for the head of the reports.</summary>
    public static string Placement(CpuPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var replicas = string.Create(Invariant, $"the {HAProxyTopology.ReplicaCount} replicas");
        return plan.Primary switch
        {
            CpuLayout.Split when plan.Server is { } server =>
                string.Create(Invariant, $"split: {replicas} and HAProxy on {server.Describe()} (each started under taskset -c {server}, the replicas with DOTNET_PROCESSOR_COUNT={server.Count}), the load client on {plan.Client!.Describe()}"),
            _ when plan.Available is null => $"shared: {replicas}, HAProxy and the load client on any CPU (CPU affinity is not known here)",
            _ => $"shared: {replicas}, HAProxy and the load client all on {plan.Available.Describe()}, wherever the scheduler puts them",
        };
    }

    /// <summary>Each scenario and load measured straight with its counterpart through HAProxy (same layout).</summary>
    internal static IEnumerable<(RepeatedScenario Straight, RepeatedScenario Through)> Pairs(IEnumerable<ScenarioResult> results)
    {
        var groups = RepeatedScenario.Group(results);
        foreach (var straight in groups.Where(group => group.Repetitions[0].Route == ServerRoute.Straight))
        {
            var through = groups.FirstOrDefault(group => group.Repetitions[0].Route == ServerRoute.ThroughHAProxy && group.Scenario == straight.Scenario
                && group.Copies == straight.Copies && group.Repetitions[0].Rate == straight.Repetitions[0].Rate && group.Repetitions[0].Layout == straight.Repetitions[0].Layout);
            if (through is not null)
            {
                yield return (straight, through);
            }
        }
    }
}
