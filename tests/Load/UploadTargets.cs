using System.Globalization;
using WebSerialization.Models;

namespace WebSerialization.Load;

/// <summary>
/// The constant-memory upload targets, judged on this run's 1,000,000-member results as the summary shows them: the
/// working-set raise of 4 concurrent uploads and of 4 concurrent converts in every format, each upload's p50 against
/// the same bytes decoded in process (<see cref="InProcessDecode"/>), and each convert's p50 against the JSON upload's
/// p50 plus the target format's download p50 (fewest copies of each).
/// </summary>
public static class UploadTargets
{
    public static IReadOnlyList<TargetVerdict> Evaluate(IReadOnlyList<ScenarioResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var full = RepeatedScenario.Group(results.Where(result => result.Outcome == ScenarioOutcome.Ran
                && result.Scenario.Endpoint == ScenarioEndpoint.Streamed
                && result.Scenario.MemberCount == DownloadTargets.FullMemberCount))
            .Where(run => run.Repetitions.All(repetition => repetition.Succeeded.Any()))
            .ToArray();
        if (!full.Any(run => run.Scenario.Kind is ScenarioKind.Upload or ScenarioKind.Convert))
        {
            return [];
        }

        return
        [
            WorkingSet(ScenarioKind.Upload, "uploads", full),
            WorkingSet(ScenarioKind.Convert, "converts from JSON", full),
            .. WireFormat.All.Select(format => UploadTime(format, full)),
            .. WireFormat.All.Where(format => format != WireFormat.Json).Select(format => ConvertTime(format, full)),
        ];
    }

    private static TargetVerdict WorkingSet(ScenarioKind kind, string what, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"{DownloadTargets.ConcurrentCopies} concurrent {what} of {DownloadTargets.FullMemberCount:N0} members raise the server's working set by <= {DownloadTargets.MaxWorkingSetRaiseMegabytes} MB, every format");
        var runs = full.Where(run => run.Scenario.Kind == kind && run.Copies == DownloadTargets.ConcurrentCopies && run.Figures.PeakWorkingSet > 0).ToArray();
        if (runs.Length == 0)
        {
            return new TargetVerdict(target, "not run", TargetVerdict.NotRun);
        }

        var raises = runs.Select(run => (run.Scenario.Format.Key, Megabytes: run.Figures.WorkingSetRaise / Units.BytesPerMegabyte)).ToArray();
        return new TargetVerdict(
            target,
            string.Join("; ", raises.Select(raise => string.Create(CultureInfo.InvariantCulture, $"{raise.Key} {raise.Megabytes:+0.0;-0.0} MB"))),
            raises.All(raise => raise.Megabytes <= DownloadTargets.MaxWorkingSetRaiseMegabytes) ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    /// <summary>How much slower than the in-process decode of the same bytes an upload's p50 may be.</summary>
    public const double MaxUploadOverDecode = 1.5;

    private static TargetVerdict UploadTime(WireFormat format, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member {format.Key} upload takes at most {MaxUploadOverDecode}x the in-process decode of the same bytes (p50)");
        var upload = Fewest(full, ScenarioKind.Upload, format);
        var decodes = upload?.Repetitions.Select(repetition => repetition.InProcessDecode?.TotalMilliseconds).OfType<double>().Order().ToArray();
        if (upload?.Figures.P50 is not { } uploadMs || decodes is not { Length: > 0 })
        {
            return new TargetVerdict(target, $"upload {Describe(upload)}, in-process decode not measured", TargetVerdict.NotRun);
        }

        var decodeMs = decodes[decodes.Length / 2];
        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"upload {Describe(upload)} against decode {decodeMs:0} ms ({uploadMs / decodeMs:0.00}x)"),
            uploadMs <= MaxUploadOverDecode * decodeMs ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static TargetVerdict ConvertTime(WireFormat format, RepeatedScenario[] full)
    {
        var target = string.Create(CultureInfo.InvariantCulture, $"A {DownloadTargets.FullMemberCount:N0}-member convert from JSON to {format.Key} takes at most the JSON upload plus the {format.Key} download (p50)");
        var convert = Fewest(full, ScenarioKind.Convert, format);
        var upload = Fewest(full, ScenarioKind.Upload, WireFormat.Json);
        var download = Fewest(full, ScenarioKind.Download, format);
        if (convert?.Figures.P50 is not { } convertMs || upload?.Figures.P50 is not { } uploadMs || download?.Figures.P50 is not { } downloadMs)
        {
            return new TargetVerdict(target, $"convert {Describe(convert)}, upload {Describe(upload)}, download {Describe(download)}", TargetVerdict.NotRun);
        }

        return new TargetVerdict(
            target,
            string.Create(CultureInfo.InvariantCulture, $"convert {Describe(convert)} against upload {Describe(upload)} + download {Describe(download)} = {uploadMs + downloadMs:0} ms"),
            convertMs <= uploadMs + downloadMs ? TargetVerdict.Pass : TargetVerdict.Miss);
    }

    private static RepeatedScenario? Fewest(RepeatedScenario[] full, ScenarioKind kind, WireFormat format) => full
        .Where(run => run.Scenario.Kind == kind && run.Scenario.Format == format)
        .OrderBy(run => run.Copies)
        .FirstOrDefault();

    private static string Describe(RepeatedScenario? run) => run?.Figures.P50 is { } milliseconds
        ? string.Create(CultureInfo.InvariantCulture, $"{milliseconds:0} ms (x{run.Copies})")
        : "not run";
}
