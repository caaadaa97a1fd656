namespace WebSerialization.Load.Targets;

/// <summary>
/// The issue's targets for downloads, judged on this run's results: allocations per request, the working set under
/// four copies, and the speed of each format against JSON (p50 time to last byte, 1,000,000 members, fewest copies).
/// A scenario run several times (<c>--repeat</c>) is judged as the summary shows it: on the median over its runs of
/// the p50 and of the allocations, and on the largest working-set raise of its runs; the measured text then gives
/// the runs' spread.
/// </summary>
public static class DownloadTargets
{
    public const double MaxAllocatedMegabytesPerRequest = 1;
    public const double MaxWorkingSetRaiseMegabytes = 64;
    public const int FullMemberCount = 1_000_000;
    public const int SmallMemberCount = 10_000;
    public const int ConcurrentCopies = 4;

    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results)
    {
        var downloads = RepeatedScenario.Group(results.Where(result => result.Scenario.Subject?.IsStreamed(ScenarioOperation.Download) == true && result.Outcome != ScenarioOutcome.Skipped)).ToArray();
        return
        [
            .. WireFormat.All.Select(format => Allocations(format, downloads)),
            .. WireFormat.All.Select(format => WorkingSet(format, downloads)),
            BinaryIsFastest(downloads),
            FasterThanJson(WireFormat.Binary, 4, downloads),
            FasterThanJson(WireFormat.MessagePack, 2, downloads),
            FasterThanJson(WireFormat.Protobuf, 2, downloads),
        ];
    }

    private static TargetVerdict Allocations(WireFormat format, RepeatedScenario[] downloads)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"Server allocations per {format.Key} download <= {MaxAllocatedMegabytesPerRequest} MB/request, at {SmallMemberCount:N0} and {FullMemberCount:N0} members");
        var measured = new List<string>();
        var verdict = TargetVerdict.Pass;
        foreach (var count in new[] { SmallMemberCount, FullMemberCount })
        {
            var runs = downloads.Where(result => result.Scenario.Subject!.Format == format && result.Scenario.Subject.MemberCount == count).ToArray();
            if (runs.Length == 0)
            {
                measured.Add(string.Create(CultureInfo.InvariantCulture, $"{count:N0}: not run"));
                verdict = verdict == TargetVerdict.Miss ? verdict : TargetVerdict.NotRun;
                continue;
            }

            foreach (var run in runs)
            {
                var failed = run.Repetitions.FirstOrDefault(repetition => !repetition.Succeeded.Any());
                var perRequest = run.Figures.AllocatedBytesPerRequest / Units.BytesPerMegabyte;
                if (failed is null && perRequest is { } megabytes)
                {
                    var spread = Spread.Of(run.Repetitions.Select(repetition => repetition.ServerCost?.AllocatedBytesPerRequest / Units.BytesPerMegabyte));
                    measured.Add(string.Create(CultureInfo.InvariantCulture, $"{count:N0} x{run.Copies}: {megabytes:0.000} MB{Runs(run, spread, "0.000", " (", ")")}"));
                    verdict = megabytes > MaxAllocatedMegabytesPerRequest ? TargetVerdict.Miss : verdict;
                }
                else
                {
                    // Failed requests miss the target; a server without counters just cannot say.
                    measured.Add(string.Create(CultureInfo.InvariantCulture, $"{count:N0} x{run.Copies}: {Why(failed ?? run.Repetitions[0])}"));
                    verdict = failed is null && verdict != TargetVerdict.Miss ? TargetVerdict.NotRun : TargetVerdict.Miss;
                }
            }
        }

        return new TargetVerdict(target, string.Join("; ", measured), verdict);
    }

    private static TargetVerdict WorkingSet(WireFormat format, RepeatedScenario[] downloads)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"{ConcurrentCopies} concurrent {format.Key} downloads of {FullMemberCount:N0} members raise the server's working set by <= {MaxWorkingSetRaiseMegabytes} MB");
        var run = downloads.FirstOrDefault(result =>
            result.Scenario.Subject!.Format == format && result.Scenario.Subject.MemberCount == FullMemberCount && result.Copies == ConcurrentCopies);
        if (run is null || run.Figures.PeakWorkingSet == 0)
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        // The run that raised the working set most: a bound on memory holds only if it holds every time.
        var figures = run.Figures;
        var raise = figures.WorkingSetRaise / Units.BytesPerMegabyte;
        var measured = string.Create(
            CultureInfo.InvariantCulture,
            $"peak {figures.PeakWorkingSet / Units.BytesPerMegabyte:0.0} MB - idle {(figures.PeakWorkingSet - figures.WorkingSetRaise) / Units.BytesPerMegabyte:0.0} MB = {raise:+0.0;-0.0} MB")
            + (run.IsRepeated ? string.Create(CultureInfo.InvariantCulture, $" (the largest of {run.Repetitions.Count} runs)") : string.Empty);
        if (run.Repetitions.FirstOrDefault(repetition => !repetition.Succeeded.Any()) is { } failed)
        {
            return new TargetVerdict(target, $"{measured} ({Why(failed)})", TargetVerdict.Miss);
        }

        // The raise over a freshly started server includes what any traffic costs once (the GC's allocation budget, JIT);
        // the single-copy run of the same download separates that from what concurrency adds.
        var single = downloads.FirstOrDefault(result =>
            result.Scenario.Subject!.Format == format && result.Scenario.Subject.MemberCount == FullMemberCount && result.Copies == 1
            && result.Figures.PeakWorkingSet > 0 && result.Repetitions.All(repetition => repetition.Succeeded.Any()));
        if (single is not null)
        {
            var singleRaise = single.Figures.WorkingSetRaise;
            measured += string.Create(
                CultureInfo.InvariantCulture,
                $"; with 1 copy: {singleRaise / Units.BytesPerMegabyte:+0.0;-0.0} MB, so {ConcurrentCopies} copies added {(figures.WorkingSetRaise - singleRaise) / Units.BytesPerMegabyte:+0.0;-0.0} MB");
        }

        return new TargetVerdict(target, measured, raise <= MaxWorkingSetRaiseMegabytes ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict BinaryIsFastest(RepeatedScenario[] downloads)
    {
        const string target = "The binary download is the fastest format (p50 time to last byte, 1,000,000 members)";
        var medians = WireFormat.All.ToDictionary(format => format, format => Median(format, downloads));
        if (medians.Values.All(median => median.Run is null))
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        var measured = string.Join("; ", WireFormat.All.Select(format => $"{format.Key} {Describe(medians[format])}"));
        if (medians[WireFormat.Binary].Run is null)
        {
            return new TargetVerdict(target, measured, TargetVerdict.NotRun);
        }

        if (medians[WireFormat.Binary].Milliseconds is not { } binary)
        {
            return new TargetVerdict(target, measured, TargetVerdict.Miss);
        }

        var fastest = medians.Where(pair => pair.Key != WireFormat.Binary).All(pair => pair.Value.Milliseconds is null || binary < pair.Value.Milliseconds);
        return new TargetVerdict(target, measured, fastest ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict FasterThanJson(WireFormat format, double factor, RepeatedScenario[] downloads)
    {
        var key = format.Key;
        var target = string.Create(CultureInfo.InvariantCulture, $"The {key} download is at least {factor}x faster than JSON (p50 time to last byte, 1,000,000 members)");
        var json = Median(WireFormat.Json, downloads);
        var other = Median(format, downloads);
        if (json.Run is null || other.Run is null)
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        if (json.Milliseconds is not { } jsonMs || other.Milliseconds is not { } otherMs)
        {
            return new TargetVerdict(target, $"json {Describe(json)}; {key} {Describe(other)}", TargetVerdict.Miss);
        }

        var speedUp = jsonMs / otherMs;
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"json {Describe(json)} / {key} {Describe(other)} = {speedUp:0.00}x"),
            speedUp >= factor ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    // The p50 time to last byte of the format's 1,000,000-member download with the fewest copies measured: the
    // median of its runs' p50.
    private static (RepeatedScenario? Run, double? Milliseconds) Median(WireFormat format, RepeatedScenario[] downloads)
    {
        var run = downloads
            .Where(result => result.Scenario.Subject!.Format == format && result.Scenario.Subject.MemberCount == FullMemberCount)
            .OrderBy(result => result.Copies)
            .FirstOrDefault();
        return (run, run?.Figures.P50);
    }

    private static string Describe((RepeatedScenario? Run, double? Milliseconds) median) => median switch
    {
        (null, _) => "not run",
        ({ } run, null) => Why(run.Repetitions.FirstOrDefault(repetition => repetition.Latency is null) ?? run.Repetitions[0]),
        ({ } run, { } milliseconds) => string.Create(CultureInfo.InvariantCulture, $"{milliseconds:0} ms (x{run.Copies}{Runs(run, run.P50Spread, "0", ", ", string.Empty)})"),
    };

    // "3 runs 61-91" between the given brackets, for a scenario that ran more than once; nothing for one run.
    private static string Runs(RepeatedScenario run, Spread? spread, string format, string before, string after) =>
        run.IsRepeated && spread is { } range
            ? string.Create(CultureInfo.InvariantCulture, $"{before}{run.Repetitions.Count} runs {range.ToString(format)}{after}")
            : string.Empty;

    private static string Why(ScenarioResult run) => run.Outcome == ScenarioOutcome.CouldNotRun
        ? run.Note ?? "could not run"
        : run.Succeeded.Any() ? "no server counters" : $"no successful request ({run.FailureReasons.FirstOrDefault().Error ?? "none sent"})";
}
