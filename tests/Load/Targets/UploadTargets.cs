namespace WebSerialization.Load.Targets;

/// <summary>
/// The upload targets, judged on this run's 1,000,000-member results as the summary shows them: the working-set raise
/// of 4 concurrent uploads and of 4 concurrent converts in every format; what the server allocates per upload and per
/// convert; each upload's p50 against the same format's download p50 and against the same bytes decoded in process
/// (<see cref="InProcessDecode"/>); and each convert's p50 against the larger of the JSON upload's p50 and the target
/// format's download p50 (fewest copies of each). A convert decodes on one core while it encodes on another, so when the
/// run also measured the server with more than one core (<c>multiCore</c>: the shared layout beside split), the convert
/// target is judged there, all three runs from that layout; on one core a convert costs the sum of both halves.
/// </summary>
public static class UploadTargets
{
    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results, (IReadOnlyList<ScenarioResult> Results, string Layout)? multiCore = null)
    {
        var full = Full(results);
        var converts = multiCore is { } other ? (Runs: Full(other.Results), Where: $"; judged where the server has more than one core: {other.Layout}") : (Runs: full, Where: string.Empty);
        if (!full.Any(run => run.Scenario.Subject!.Operation == ScenarioOperation.Upload || run.Scenario.Subject.Operation == ScenarioOperation.Convert))
        {
            return [];
        }

        return
        [
            WorkingSet(ScenarioOperation.Upload, "uploads", full),
            WorkingSet(ScenarioOperation.Convert, "converts from JSON", full),
            .. WireFormat.All.Select(format => Allocation(ScenarioOperation.Upload, format, full)),
            .. WireFormat.All.Where(format => format != WireFormat.Json).Select(format => Allocation(ScenarioOperation.Convert, format, full)),
            .. WireFormat.All.Select(format => UploadOverDownload(format, full)),
            .. WireFormat.All.Select(format => UploadTime(format, full)),
            .. WireFormat.All.Where(format => format != WireFormat.Json).Select(format => ConvertTime(format, converts.Runs, converts.Where)),
        ];
    }

    private static RepeatedScenario[] Full(IEnumerable<ScenarioResult> results) => RepeatedScenario.Group(results.Where(result => result.Outcome == ScenarioOutcome.Ran
            && result.Scenario.Subject is { Baseline: false, MemberCount: DownloadTargets.FullMemberCount }))
        .Where(run => run.Repetitions.All(repetition => repetition.Succeeded.Any()))
        .ToArray();

    private static TargetVerdict WorkingSet(ScenarioOperation kind, string what, RepeatedScenario[] full) => TargetRuns.WorkingSet(
        string.Create(CultureInfo.InvariantCulture, $"{DownloadTargets.ConcurrentCopies} concurrent {what} of {DownloadTargets.FullMemberCount:N0} members raise the server's working set by <= {DownloadTargets.MaxWorkingSetRaiseMegabytes} MB, every format"),
        full.Where(run => run.Scenario.Subject!.Operation == kind && run.Copies == DownloadTargets.ConcurrentCopies).Select(run => ((string, RepeatedScenario?))($"{run.Scenario.Subject!.Format.Key} ", run)));

    /// <summary>How much slower than the in-process decode of the same bytes an upload's p50 may be.</summary>
    public const double MaxUploadOverDecode = 1.5;

    /// <summary>The most the server may allocate per 1,000,000-member upload or convert: nothing per member.</summary>
    public const double MaxAllocatedMegabytesPerRequest = 1.0;

    /// <summary>How much slower than the same format's download an upload's p50 may be: reading costs about what writing does.</summary>
    public const double MaxUploadOverDownload = 1.5;

    /// <summary>The same for binary, whose download is so small that the checksum's hashing weighs more in its upload.</summary>
    public const double MaxBinaryUploadOverDownload = 2.0;

    /// <summary>How much slower a convert's p50 may be than the larger of its source's upload and its target's download.</summary>
    public const double MaxConvertOverSlowerHalf = 1.25;

    private static TargetVerdict Allocation(ScenarioOperation kind, WireFormat format, RepeatedScenario[] full)
    {
        var what = kind == ScenarioOperation.Upload ? $"{format.Key} upload" : $"convert from JSON to {format.Key}";
        var run = TargetRuns.Fewest(full, kind, format);
        return TargetRuns.Allocations(
            string.Create(CultureInfo.InvariantCulture, $"The server allocates <= {MaxAllocatedMegabytesPerRequest} MB per {DownloadTargets.FullMemberCount:N0}-member {what}"),
            [($"x{run?.Copies ?? 1}", run)],
            MaxAllocatedMegabytesPerRequest);
    }

    private static TargetVerdict UploadOverDownload(WireFormat format, RepeatedScenario[] full)
    {
        var bound = format == WireFormat.Binary ? MaxBinaryUploadOverDownload : MaxUploadOverDownload;
        return TargetRuns.Ratio(
            string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member {format.Key} upload takes at most {bound}x the {format.Key} download (p50)"),
            "upload",
            TargetRuns.Fewest(full, ScenarioOperation.Upload, format),
            "download",
            TargetRuns.Fewest(full, ScenarioOperation.Download, format),
            bound);
    }

    private static TargetVerdict UploadTime(WireFormat format, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member {format.Key} upload takes at most {MaxUploadOverDecode}x the in-process decode of the same bytes (p50)");
        var upload = TargetRuns.Fewest(full, ScenarioOperation.Upload, format);
        var decodes = upload?.Repetitions.Select(repetition => repetition.InProcessDecode?.TotalMilliseconds).OfType<double>().Order().ToArray();
        if (upload?.Figures.P50 is not { } uploadMs || decodes is not { Length: > 0 })
        {
            return new TargetVerdict(target, $"upload {TargetRuns.Describe(upload)}, in-process decode not measured", TargetVerdict.NotRun);
        }

        var decodeMs = decodes[decodes.Length / 2];
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"upload {TargetRuns.Describe(upload)} against decode {decodeMs:0} ms ({uploadMs / decodeMs:0.00}x){(TargetRuns.CpuMilliseconds(upload) is { } cpu ? $"; server CPU per upload {cpu:0} ms" : "")}"),
            uploadMs <= MaxUploadOverDecode * decodeMs ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict ConvertTime(WireFormat format, RepeatedScenario[] full, string where)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member convert from JSON to {format.Key} takes at most {MaxConvertOverSlowerHalf}x the slower of the JSON upload and the {format.Key} download (p50){where}");
        var convert = TargetRuns.Fewest(full, ScenarioOperation.Convert, format);
        var upload = TargetRuns.Fewest(full, ScenarioOperation.Upload, WireFormat.Json);
        var download = TargetRuns.Fewest(full, ScenarioOperation.Download, format);
        if (convert?.Figures.P50 is not { } convertMs || upload?.Figures.P50 is not { } uploadMs || download?.Figures.P50 is not { } downloadMs)
        {
            return new TargetVerdict(target, $"convert {TargetRuns.Describe(convert)}, upload {TargetRuns.Describe(upload)}, download {TargetRuns.Describe(download)}", TargetVerdict.NotRun);
        }

        var slower = Math.Max(uploadMs, downloadMs);
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"convert {TargetRuns.Describe(convert)} against upload {TargetRuns.Describe(upload)}, download {TargetRuns.Describe(download)} ({convertMs / slower:0.00}x the slower){ServerCpu(convert, upload, download)}"),
            convertMs <= MaxConvertOverSlowerHalf * slower ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    // What the server's CPUs spent per request (median over the runs): a convert whose CPU time comes to the upload's plus
    // the download's cannot take less than that sum on one CPU, whatever it overlaps.
    private static string ServerCpu(RepeatedScenario convert, RepeatedScenario upload, RepeatedScenario download) =>
        TargetRuns.CpuMilliseconds(convert) is { } convertCpu && TargetRuns.CpuMilliseconds(upload) is { } uploadCpu && TargetRuns.CpuMilliseconds(download) is { } downloadCpu
            ? string.Create(CultureInfo.InvariantCulture, $"; server CPU per request: convert {convertCpu:0} ms, upload {uploadCpu:0} + download {downloadCpu:0} = {uploadCpu + downloadCpu:0} ms")
            : "";
}
