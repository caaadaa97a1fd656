namespace WebSerialization.Load.Targets;

/// <summary>
/// The gRPC issue's targets, judged on this run's 1,000,000-member results (the median over repetitions, as the
/// summary shows them): the stream's p50 time to last message against the HTTP protobuf download's p50 (fewest
/// copies of each), the server's allocation per streamed organization, and the working-set raise of 4 concurrent streams.
/// </summary>
public static class GrpcTargets
{
    public const double MaxStreamToDownloadRatio = 1.5;
    public const double MaxAllocatedMegabytesPerStream = 2;

    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results)
    {
        var full = RepeatedScenario.Group(results.Where(result => result.Outcome == ScenarioOutcome.Ran
                && result.Scenario.Subject?.MemberCount == DownloadTargets.FullMemberCount))
            .Where(run => run.Repetitions.All(repetition => repetition.Succeeded.Any()))
            .ToArray();
        var streams = full.Where(run => run.Scenario.Subject!.Operation == ScenarioOperation.GrpcStream).OrderBy(run => run.Copies).ToArray();
        return [StreamTime(streams.FirstOrDefault(), UploadTargets.Fewest(full, ScenarioOperation.Download, WireFormat.Protobuf)), Allocations(streams), WorkingSet(streams)];
    }

    private static TargetVerdict StreamTime(RepeatedScenario? stream, RepeatedScenario? download)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"The gRPC stream of {DownloadTargets.FullMemberCount:N0} members takes at most {MaxStreamToDownloadRatio}x the HTTP protobuf download (p50 time to last byte)");
        if (stream?.Figures.P50 is not { } streamMs || download?.Figures.P50 is not { } downloadMs)
        {
            return new TargetVerdict(target, $"stream {UploadTargets.Describe(stream)}; download {UploadTargets.Describe(download)}", TargetVerdict.NotRun);
        }

        var ratio = streamMs / downloadMs;
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"stream {UploadTargets.Describe(stream)} / download {UploadTargets.Describe(download)} = {ratio:0.00}x"),
            ratio <= MaxStreamToDownloadRatio ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict Allocations(RepeatedScenario[] streams)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"Server allocations per gRPC stream of {DownloadTargets.FullMemberCount:N0} members <= {MaxAllocatedMegabytesPerStream} MB");
        var measured = streams
            .Select(run => (run.Copies, Megabytes: run.Figures.AllocatedBytesPerRequest / Units.BytesPerMegabyte))
            .Where(run => run.Megabytes is not null)
            .ToArray();
        if (measured.Length == 0)
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        return new TargetVerdict(
            target,
            string.Join("; ", measured.Select(run => string.Create(CultureInfo.InvariantCulture, $"x{run.Copies}: {run.Megabytes:0.000} MB"))),
            measured.All(run => run.Megabytes <= MaxAllocatedMegabytesPerStream) ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict WorkingSet(RepeatedScenario[] streams)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"{DownloadTargets.ConcurrentCopies} concurrent gRPC streams of {DownloadTargets.FullMemberCount:N0} members raise the server's working set by <= {DownloadTargets.MaxWorkingSetRaiseMegabytes} MB");
        var run = streams.FirstOrDefault(stream => stream.Copies == DownloadTargets.ConcurrentCopies);
        if (run is null || run.Figures.PeakWorkingSet == 0)
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        var raise = run.Figures.WorkingSetRaise / Units.BytesPerMegabyte;
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"peak {run.Figures.PeakWorkingSet / Units.BytesPerMegabyte:0.0} MB, {raise:+0.0;-0.0} MB over idle"),
            raise <= DownloadTargets.MaxWorkingSetRaiseMegabytes ? TargetVerdict.Pass : TargetVerdict.Miss);
    }
}
