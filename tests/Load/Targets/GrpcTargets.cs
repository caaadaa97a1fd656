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
        return
        [
            TargetRuns.Ratio(
                string.Create(CultureInfo.InvariantCulture, $"The gRPC stream of {DownloadTargets.FullMemberCount:N0} members takes at most {MaxStreamToDownloadRatio}x the HTTP protobuf download (p50 time to last byte)"),
                "stream",
                streams.FirstOrDefault(),
                "download",
                TargetRuns.Fewest(full, ScenarioOperation.Download, WireFormat.Protobuf),
                MaxStreamToDownloadRatio),
            TargetRuns.Allocations(
                string.Create(CultureInfo.InvariantCulture, $"Server allocations per gRPC stream of {DownloadTargets.FullMemberCount:N0} members <= {MaxAllocatedMegabytesPerStream} MB"),
                streams.Select(run => ((string, RepeatedScenario?))($"x{run.Copies}", run)),
                MaxAllocatedMegabytesPerStream),
            TargetRuns.WorkingSet(
                string.Create(CultureInfo.InvariantCulture, $"{DownloadTargets.ConcurrentCopies} concurrent gRPC streams of {DownloadTargets.FullMemberCount:N0} members raise the server's working set by <= {DownloadTargets.MaxWorkingSetRaiseMegabytes} MB"),
                [(string.Empty, streams.FirstOrDefault(stream => stream.Copies == DownloadTargets.ConcurrentCopies))]),
        ];
    }
}
