using WebSerialization.Load.ScaleOut;

namespace WebSerialization.Load.Targets;

/// <summary>
/// The scale-out target of a <c>--through-haproxy</c> run: a 1,000,000-member download through HAProxy takes at most
/// <see cref="MaxThroughToStraightRatio"/> times as long as straight from a replica, p50 time to last byte, closed
/// model, fewest copies, in every format measured both ways. A scenario run several times (<c>--repeat</c>) is judged
/// on the median of its runs' p50, as the summary shows it.
/// </summary>
public static class HAProxyTargets
{
    public const double MaxThroughToStraightRatio = 1.2;

    public static readonly string Target = string.Create(
        CultureInfo.InvariantCulture,
        $"A {DownloadTargets.FullMemberCount:N0}-member download through HAProxy takes at most {MaxThroughToStraightRatio}x as long as straight from a replica (p50)");

    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results)
    {
        var pairs = HAProxyComparison.Pairs(results.Where(result => result.Rate is null && result.Outcome != ScenarioOutcome.Skipped
                && result.Scenario.Subject is { } subject && subject.IsStreamed(ScenarioOperation.Download) && subject.MemberCount == DownloadTargets.FullMemberCount))
            .GroupBy(pair => pair.Straight.Scenario.Subject!.Format)
            .Select(format => format.OrderBy(pair => pair.Straight.Copies).First())
            .OrderBy(pair => WireFormat.All.ToList().IndexOf(pair.Straight.Scenario.Subject!.Format))
            .ToArray();
        if (pairs.Length == 0)
        {
            return [new TargetVerdict(Target, "not run", TargetVerdict.NotRun)];
        }

        var measured = new List<string>();
        var verdict = TargetVerdict.Pass;
        foreach (var (straight, through) in pairs)
        {
            var key = straight.Scenario.Subject!.Format.Key;
            if (straight.HasFailures || through.HasFailures || straight.Figures.P50 is not { } straightMs || through.Figures.P50 is not { } throughMs)
            {
                measured.Add($"{key} x{straight.Copies}: a run without successful requests, or with failed ones");
                verdict = TargetVerdict.Miss;
                continue;
            }

            var ratio = throughMs / straightMs;
            measured.Add(string.Create(CultureInfo.InvariantCulture, $"{key} x{straight.Copies}: through HAProxy {throughMs:0} ms / straight {straightMs:0} ms = {ratio:0.00}x"));
            verdict = ratio <= MaxThroughToStraightRatio ? verdict : TargetVerdict.Miss;
        }

        return [new TargetVerdict(Target, string.Join("; ", measured), verdict)];
    }
}
