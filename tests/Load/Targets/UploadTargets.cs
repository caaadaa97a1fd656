namespace WebSerialization.Load.Targets;

/// <summary>
/// The upload targets, judged on this run's 1,000,000-member results as the summary shows them: the working-set raise
/// of 4 concurrent uploads and of 4 concurrent converts in every format; what the server allocates per upload and per
/// convert; each upload's p50 against the same format's download p50 and against the same bytes decoded in process
/// (<see cref="InProcessDecode"/>); and each convert's p50 against the larger of the JSON upload's p50 and the target
/// format's download p50 (fewest copies of each).
/// </summary>
public static class UploadTargets
{
    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results)
    {
        var full = RepeatedScenario.Group(results.Where(result => result.Outcome == ScenarioOutcome.Ran
                && result.Scenario.Subject is { Baseline: false, MemberCount: DownloadTargets.FullMemberCount }))
            .Where(run => run.Repetitions.All(repetition => repetition.Succeeded.Any()))
            .ToArray();
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
            .. WireFormat.All.Where(format => format != WireFormat.Json).Select(format => ConvertTime(format, full)),
        ];
    }

    private static TargetVerdict WorkingSet(ScenarioOperation kind, string what, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"{DownloadTargets.ConcurrentCopies} concurrent {what} of {DownloadTargets.FullMemberCount:N0} members raise the server's working set by <= {DownloadTargets.MaxWorkingSetRaiseMegabytes} MB, every format");
        var runs = full.Where(run => run.Scenario.Subject!.Operation == kind && run.Copies == DownloadTargets.ConcurrentCopies && run.Figures.PeakWorkingSet > 0).ToArray();
        if (runs.Length == 0)
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        var raises = runs.Select(run => (run.Scenario.Subject!.Format.Key, Megabytes: run.Figures.WorkingSetRaise / Units.BytesPerMegabyte)).ToArray();
        return new TargetVerdict(
            target,
            string.Join("; ", raises.Select(raise => string.Create(CultureInfo.InvariantCulture, $"{raise.Key} {raise.Megabytes:+0.0;-0.0} MB"))),
            raises.All(raise => raise.Megabytes <= DownloadTargets.MaxWorkingSetRaiseMegabytes) ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

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
        var target = string.Create(CultureInfo.InvariantCulture, $"The server allocates <= {MaxAllocatedMegabytesPerRequest} MB per {DownloadTargets.FullMemberCount:N0}-member {what}");
        var run = Fewest(full, kind, format);
        if (run?.Figures.AllocatedBytesPerRequest is not { } bytes)
        {
            return new TargetVerdict(target, run is null ? "not run" : "the server's counters were not read", TargetVerdict.NotRun);
        }

        var megabytes = bytes / Units.BytesPerMegabyte;
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"{megabytes:0.000} MB (x{run.Copies})"),
            megabytes <= MaxAllocatedMegabytesPerRequest ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict UploadOverDownload(WireFormat format, RepeatedScenario[] full)
    {
        var bound = format == WireFormat.Binary ? MaxBinaryUploadOverDownload : MaxUploadOverDownload;
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member {format.Key} upload takes at most {bound}x the {format.Key} download (p50)");
        var upload = Fewest(full, ScenarioOperation.Upload, format);
        var download = Fewest(full, ScenarioOperation.Download, format);
        if (upload?.Figures.P50 is not { } uploadMs || download?.Figures.P50 is not { } downloadMs)
        {
            return new TargetVerdict(target, $"upload {Describe(upload)}, download {Describe(download)}", TargetVerdict.NotRun);
        }

        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"upload {Describe(upload)} against download {Describe(download)} ({uploadMs / downloadMs:0.00}x)"),
            uploadMs <= bound * downloadMs ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict UploadTime(WireFormat format, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member {format.Key} upload takes at most {MaxUploadOverDecode}x the in-process decode of the same bytes (p50)");
        var upload = Fewest(full, ScenarioOperation.Upload, format);
        var decodes = upload?.Repetitions.Select(repetition => repetition.InProcessDecode?.TotalMilliseconds).OfType<double>().Order().ToArray();
        if (upload?.Figures.P50 is not { } uploadMs || decodes is not { Length: > 0 })
        {
            return new TargetVerdict(target, $"upload {Describe(upload)}, in-process decode not measured", TargetVerdict.NotRun);
        }

        var decodeMs = decodes[decodes.Length / 2];
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"upload {Describe(upload)} against decode {decodeMs:0} ms ({uploadMs / decodeMs:0.00}x){(CpuMilliseconds(upload) is { } cpu ? $"; server CPU per upload {cpu:0} ms" : "")}"),
            uploadMs <= MaxUploadOverDecode * decodeMs ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict ConvertTime(WireFormat format, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member convert from JSON to {format.Key} takes at most {MaxConvertOverSlowerHalf}x the slower of the JSON upload and the {format.Key} download (p50)");
        var convert = Fewest(full, ScenarioOperation.Convert, format);
        var upload = Fewest(full, ScenarioOperation.Upload, WireFormat.Json);
        var download = Fewest(full, ScenarioOperation.Download, format);
        if (convert?.Figures.P50 is not { } convertMs || upload?.Figures.P50 is not { } uploadMs || download?.Figures.P50 is not { } downloadMs)
        {
            return new TargetVerdict(target, $"convert {Describe(convert)}, upload {Describe(upload)}, download {Describe(download)}", TargetVerdict.NotRun);
        }

        var slower = Math.Max(uploadMs, downloadMs);
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"convert {Describe(convert)} against upload {Describe(upload)}, download {Describe(download)} ({convertMs / slower:0.00}x the slower){ServerCpu(convert, upload, download)}"),
            convertMs <= MaxConvertOverSlowerHalf * slower ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    // What the server's CPUs spent per request (median over the runs): a convert whose CPU time comes to the upload's plus
    // the download's cannot take less than that sum on one CPU, whatever it overlaps.
    private static string ServerCpu(RepeatedScenario convert, RepeatedScenario upload, RepeatedScenario download) =>
        CpuMilliseconds(convert) is { } convertCpu && CpuMilliseconds(upload) is { } uploadCpu && CpuMilliseconds(download) is { } downloadCpu
            ? string.Create(CultureInfo.InvariantCulture, $"; server CPU per request: convert {convertCpu:0} ms, upload {uploadCpu:0} + download {downloadCpu:0} = {uploadCpu + downloadCpu:0} ms")
            : "";

    private static double? CpuMilliseconds(RepeatedScenario run) =>
        ScenarioFigures.Median(run.Repetitions.Select(repetition => repetition.ServerCpuMillisecondsPerRequest));

    // The run of the operation and format with the fewest copies; also the gRPC targets' HTTP download.
    internal static RepeatedScenario? Fewest(RepeatedScenario[] full, ScenarioOperation kind, WireFormat format) => full
        .Where(run => run.Scenario.Subject!.Operation == kind && run.Scenario.Subject.Format == format)
        .OrderBy(run => run.Copies)
        .FirstOrDefault();

    internal static string Describe(RepeatedScenario? run) => run?.Figures.P50 is { } milliseconds
        ? string.Create(CultureInfo.InvariantCulture, $"{milliseconds:0} ms (x{run.Copies})")
        : "not run";
}
