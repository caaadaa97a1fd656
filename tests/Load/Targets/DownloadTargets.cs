namespace WebSerialization.Load.Targets;

/// <summary>
/// The targets for downloads, judged on this run's results: allocations per request, the working set under
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

    private static TargetVerdict Allocations(WireFormat format, RepeatedScenario[] downloads) => TargetRuns.Allocations(
        string.Create(CultureInfo.InvariantCulture, $"Server allocations per {format.Key} download <= {MaxAllocatedMegabytesPerRequest} MB/request, at {SmallMemberCount:N0} and {FullMemberCount:N0} members"),
        new[] { SmallMemberCount, FullMemberCount }.SelectMany(count =>
        {
            var runs = downloads.Where(result => result.Scenario.Subject!.Format == format && result.Scenario.Subject.MemberCount == count).ToArray();
            var label = count.ToString("N0", CultureInfo.InvariantCulture);
            return runs.Length == 0 ? [(label, null)] : runs.Select(run => ((string, RepeatedScenario?))($"{label} x{run.Copies}", run));
        }),
        MaxAllocatedMegabytesPerRequest);

    // The raise over a freshly started server includes what any traffic costs once (the GC's allocation budget, JIT);
    // the single-copy run of the same download separates that from what concurrency adds.
    private static TargetVerdict WorkingSet(WireFormat format, RepeatedScenario[] downloads)
    {
        RepeatedScenario? Run(int copies) => downloads.FirstOrDefault(result =>
            result.Scenario.Subject!.Format == format && result.Scenario.Subject.MemberCount == FullMemberCount && result.Copies == copies);
        var single = Run(1) is { Figures.PeakWorkingSet: > 0 } run && run.Repetitions.All(repetition => repetition.Succeeded.Any()) ? run : null;
        return TargetRuns.WorkingSet(
            string.Create(CultureInfo.InvariantCulture, $"{ConcurrentCopies} concurrent {format.Key} downloads of {FullMemberCount:N0} members raise the server's working set by <= {MaxWorkingSetRaiseMegabytes} MB"),
            [(string.Empty, Run(ConcurrentCopies))],
            concurrent => single is null ? string.Empty : string.Create(
                CultureInfo.InvariantCulture,
                $"; with 1 copy: {single.Figures.WorkingSetRaise / Units.BytesPerMegabyte:+0.0;-0.0} MB, so {ConcurrentCopies} copies added {(concurrent.Figures.WorkingSetRaise - single.Figures.WorkingSetRaise) / Units.BytesPerMegabyte:+0.0;-0.0} MB"));
    }

    private static TargetVerdict BinaryIsFastest(RepeatedScenario[] downloads)
    {
        const string target = "The binary download is the fastest format (p50 time to last byte, 1,000,000 members)";
        var runs = WireFormat.All.ToDictionary(format => format, format => TargetRuns.Fewest(downloads, ScenarioOperation.Download, format));
        if (runs.Values.All(run => run is null))
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);

        var measured = string.Join("; ", WireFormat.All.Select(format => $"{format.Key} {TargetRuns.Describe(runs[format])}"));
        if (runs[WireFormat.Binary] is not { } binaryRun)
            return new TargetVerdict(target, measured, TargetVerdict.NotRun);

        var fastest = binaryRun.Figures.P50 is { } binary
            && runs.Where(pair => pair.Key != WireFormat.Binary).All(pair => pair.Value?.Figures.P50 is not { } other || binary < other);
        return new TargetVerdict(target, measured, fastest ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict FasterThanJson(WireFormat format, double factor, RepeatedScenario[] downloads) => TargetRuns.Ratio(
        string.Create(CultureInfo.InvariantCulture, $"The {format.Key} download is at least {factor}x faster than JSON (p50 time to last byte, 1,000,000 members)"),
        "json",
        TargetRuns.Fewest(downloads, ScenarioOperation.Download, WireFormat.Json),
        format.Key,
        TargetRuns.Fewest(downloads, ScenarioOperation.Download, format),
        factor,
        atLeast: true);
}
