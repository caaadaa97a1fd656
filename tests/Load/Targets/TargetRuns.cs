namespace WebSerialization.Load.Targets;

/// <summary>
/// What the target classes share: the run a target judges (the streamed 1,000,000-member run of one operation and format
/// with the fewest copies), how a verdict quotes a run, and the three kinds of verdict they give: a ratio of two p50s
/// within a bound, the server's allocation per request within a bound, and a working-set raise within
/// <see cref="DownloadTargets.MaxWorkingSetRaiseMegabytes"/>. A repeated scenario is judged on the median of its runs
/// (the largest raise for the working set) and quoted with their spread.
/// </summary>
internal static class TargetRuns
{
    public static RepeatedScenario? Fewest(IEnumerable<RepeatedScenario> runs, ScenarioOperation operation, WireFormat format) => runs
        .Where(run => run.Scenario.Subject is { Baseline: false, MemberCount: DownloadTargets.FullMemberCount } subject && subject.Operation == operation && subject.Format == format)
        .OrderBy(run => run.Copies)
        .FirstOrDefault();

    /// <summary><c>67 ms (x1, 3 runs 61-91)</c>; <c>not run</c>; or why the run has no p50.</summary>
    public static string Describe(RepeatedScenario? run) => run switch
    {
        null => "not run",
        { Figures.P50: { } milliseconds } => string.Create(CultureInfo.InvariantCulture, $"{milliseconds:0} ms (x{run.Copies}{Runs(run, run.P50Spread, "0", ", ", string.Empty)})"),
        _ => Why(run.Repetitions.FirstOrDefault(repetition => repetition.Latency is null) ?? run.Repetitions[0]),
    };

    /// <summary>
    /// <paramref name="over"/>'s p50 over <paramref name="under"/>'s at most <paramref name="bound"/> (at least, with
    /// <paramref name="atLeast"/>); NOT RUN when either did not run, MISS when either has no p50.
    /// </summary>
    public static TargetVerdict Ratio(string target, string overLabel, RepeatedScenario? over, string underLabel, RepeatedScenario? under, double bound, bool atLeast = false)
    {
        var measured = $"{overLabel} {Describe(over)} / {underLabel} {Describe(under)}";
        if (over is null || under is null)
            return new TargetVerdict(target, measured, TargetVerdict.NotRun);

        if (over.Figures.P50 is not { } overMs || under.Figures.P50 is not { } underMs)
            return new TargetVerdict(target, measured, TargetVerdict.Miss);

        var ratio = overMs / underMs;
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"{measured} = {ratio:0.00}x"),
            (atLeast ? ratio >= bound : ratio <= bound) ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    /// <summary>
    /// The server's allocation per request of each labelled run, at most <paramref name="maxMegabytes"/>: PASS when every
    /// run is within it, MISS when one is not or has a failed run, else NOT RUN (no run, a run missing, or no server counters).
    /// </summary>
    public static TargetVerdict Allocations(string target, IEnumerable<(string Label, RepeatedScenario? Run)> runs, double maxMegabytes)
    {
        var measured = new List<string>();
        var verdict = TargetVerdict.Pass;
        foreach (var (label, run) in runs)
        {
            var failed = run?.Repetitions.FirstOrDefault(repetition => !repetition.Succeeded.Any());
            if (run is null || failed is not null || run.Figures.AllocatedBytesPerRequest is not { } bytes)
            {
                // Failed requests miss the target; a server without counters just cannot say.
                measured.Add($"{label}: {(run is null ? "not run" : Why(failed ?? run.Repetitions[0]))}");
                verdict = failed is not null ? TargetVerdict.Miss : verdict == TargetVerdict.Miss ? verdict : TargetVerdict.NotRun;
                continue;
            }

            var spread = Spread.Of(run.Repetitions.Select(repetition => repetition.ServerCost?.AllocatedBytesPerRequest / Units.BytesPerMegabyte));
            var megabytes = bytes / Units.BytesPerMegabyte;
            measured.Add(string.Create(CultureInfo.InvariantCulture, $"{label}: {megabytes:0.000} MB{Runs(run, spread, "0.000", " (", ")")}"));
            verdict = megabytes > maxMegabytes ? TargetVerdict.Miss : verdict;
        }

        return measured.Count == 0 ? new TargetVerdict(target, "not run", TargetVerdict.NotRun) : new TargetVerdict(target, string.Join("; ", measured), verdict);
    }

    /// <summary>
    /// The working-set raise of each labelled run (the run that raised it most, when repeated), at most
    /// <see cref="DownloadTargets.MaxWorkingSetRaiseMegabytes"/>; NOT RUN when none was watched, MISS when a run failed.
    /// </summary>
    public static TargetVerdict WorkingSet(string target, IEnumerable<(string Label, RepeatedScenario? Run)> runs, Func<RepeatedScenario, string>? note = null)
    {
        var watched = runs.Where(labelled => labelled.Run is { Figures.PeakWorkingSet: > 0 }).Select(labelled => (labelled.Label, Run: labelled.Run!)).ToArray();
        if (watched.Length == 0)
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);

        var verdict = TargetVerdict.Pass;
        var measured = watched.Select(labelled =>
        {
            var (figures, run) = (labelled.Run.Figures, labelled.Run);
            var raise = figures.WorkingSetRaise / Units.BytesPerMegabyte;
            var failed = run.Repetitions.FirstOrDefault(repetition => !repetition.Succeeded.Any());
            verdict = failed is null && raise <= DownloadTargets.MaxWorkingSetRaiseMegabytes ? verdict : TargetVerdict.Miss;
            return labelled.Label + string.Create(
                CultureInfo.InvariantCulture,
                $"peak {figures.PeakWorkingSet / Units.BytesPerMegabyte:0.0} MB - idle {(figures.PeakWorkingSet - figures.WorkingSetRaise) / Units.BytesPerMegabyte:0.0} MB = {raise:+0.0;-0.0} MB")
                + (run.IsRepeated ? $" (the largest of {run.Repetitions.Count} runs)" : string.Empty)
                + (failed is not null ? $" ({Why(failed)})" : note?.Invoke(run) ?? string.Empty);
        }).ToArray();
        return new TargetVerdict(target, string.Join("; ", measured), verdict);
    }

    /// <summary>The median over the runs of the server's CPU time per request, in milliseconds; null when it was not read.</summary>
    public static double? CpuMilliseconds(RepeatedScenario run) =>
        ScenarioFigures.Median(run.Repetitions.Select(repetition => repetition.ServerCpuMillisecondsPerRequest));

    // "3 runs 61-91" between the given brackets, for a scenario that ran more than once; nothing for one run.
    private static string Runs(RepeatedScenario run, Spread? spread, string format, string before, string after) =>
        run.IsRepeated && spread is { } range
            ? string.Create(CultureInfo.InvariantCulture, $"{before}{run.Repetitions.Count} runs {range.ToString(format)}{after}")
            : string.Empty;

    private static string Why(ScenarioResult run) => run.Outcome == ScenarioOutcome.CouldNotRun
        ? run.Note ?? "could not run"
        : run.Succeeded.Any() ? "no server counters" : $"no successful request ({run.FailureReasons.FirstOrDefault().Error ?? "none sent"})";
}
