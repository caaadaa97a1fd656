using WebSerialization.Models;

namespace WebSerialization.Load.Tests;

public sealed class UploadTargetsTests
{
    private static ScenarioResult Run(ScenarioOperation kind, WireFormat format, int copies, double p50, long raiseMegabytes = 40) =>
        SampleRun.Ran(Scenario(kind, format), copies, 10, p50) with
        {
            PeakWorkingSet = (300 + raiseMegabytes) << 20,
            InProcessDecode = kind == ScenarioOperation.Upload ? TimeSpan.FromMilliseconds(400) : null,
        };

    private static LoadScenario Scenario(ScenarioOperation kind, WireFormat format) =>
        kind == ScenarioOperation.Upload ? HttpScenarios.Upload(format, DownloadTargets.FullMemberCount)
        : kind == ScenarioOperation.Convert ? HttpScenarios.Convert(format, DownloadTargets.FullMemberCount)
        : HttpScenarios.Download(format, DownloadTargets.FullMemberCount);

    private static List<ScenarioResult> EveryUploadAndConvert(long raiseMegabytes)
    {
        var results = new List<ScenarioResult>();
        foreach (var format in WireFormat.All)
        {
            results.Add(Run(ScenarioOperation.Upload, format, 1, 500));
            results.Add(Run(ScenarioOperation.Upload, format, 4, 1500, raiseMegabytes));
            results.Add(Run(ScenarioOperation.Download, format, 1, 400));
            if (format != WireFormat.Json)
            {
                results.Add(Run(ScenarioOperation.Convert, format, 1, 550));
                results.Add(Run(ScenarioOperation.Convert, format, 4, 1800, raiseMegabytes));
            }
        }

        return results;
    }

    [Fact]
    public void PassesWhenEveryRaiseAndConvertIsWithinItsBound()
    {
        var verdicts = UploadTargets.Evaluate(EveryUploadAndConvert(raiseMegabytes: 40));

        Assert.Equal(20, verdicts.Count);
        Assert.All(verdicts, verdict => Assert.Equal(TargetVerdict.Pass, verdict.Verdict));
    }

    [Fact]
    public void MissesWhenFourConcurrentUploadsRaiseTheWorkingSetBeyondTheBound()
    {
        var verdicts = UploadTargets.Evaluate(EveryUploadAndConvert(raiseMegabytes: 255));

        Assert.Equal(TargetVerdict.Miss, verdicts[0].Verdict);
        Assert.Contains("json +255.0 MB", verdicts[0].Measured, StringComparison.Ordinal);
        Assert.Equal(TargetVerdict.Miss, verdicts[1].Verdict);
    }

    [Fact]
    public void MissesAConvertSlowerThanOneAndAQuarterTimesTheSlowerOfUploadAndDownload()
    {
        var results = EveryUploadAndConvert(raiseMegabytes: 40);
        results.RemoveAll(result => result.Scenario.Subject!.Operation == ScenarioOperation.Convert && result.Scenario.Subject!.Format == WireFormat.Binary && result.Copies == 1);
        results.Add(Run(ScenarioOperation.Convert, WireFormat.Binary, 1, 626));

        var binary = Assert.Single(UploadTargets.Evaluate(results), verdict => verdict.Target.Contains("convert from JSON to binary takes", StringComparison.Ordinal));

        Assert.Equal(TargetVerdict.Miss, binary.Verdict);
        Assert.Contains("(1.25x the slower)", binary.Measured, StringComparison.Ordinal);
    }

    [Fact]
    public void MissesAnUploadSlowerThanOneAndAHalfTimesItsDownloadAndBinaryAtTwice()
    {
        var results = EveryUploadAndConvert(raiseMegabytes: 40);
        results.RemoveAll(result => result.Scenario.Subject!.Operation == ScenarioOperation.Download);
        results.AddRange(WireFormat.All.Select(format => Run(ScenarioOperation.Download, format, 1, 300)));

        var verdicts = UploadTargets.Evaluate(results).Where(verdict => verdict.Target.Contains("download (p50)", StringComparison.Ordinal) && verdict.Target.Contains("upload takes", StringComparison.Ordinal)).ToArray();

        Assert.Equal(4, verdicts.Length);
        Assert.All(verdicts.Where(verdict => !verdict.Target.Contains("binary", StringComparison.Ordinal)), verdict => Assert.Equal(TargetVerdict.Miss, verdict.Verdict));
        var binary = Assert.Single(verdicts, verdict => verdict.Target.Contains("binary", StringComparison.Ordinal));
        Assert.Equal(TargetVerdict.Pass, binary.Verdict);
        Assert.Contains("(1.67x)", binary.Measured, StringComparison.Ordinal);
    }

    [Fact]
    public void MissesAnUploadOrConvertThatAllocatesMoreThanAMegabyte()
    {
        var results = EveryUploadAndConvert(raiseMegabytes: 40);
        var index = results.FindIndex(result => result.Scenario.Subject!.Operation == ScenarioOperation.Convert && result.Scenario.Subject!.Format == WireFormat.Protobuf && result.Copies == 1);
        results[index] = results[index] with { ServerCost = results[index].ServerCost! with { AllocatedBytes = 100 * (244L << 20) } };

        var verdicts = UploadTargets.Evaluate(results).Where(verdict => verdict.Target.StartsWith("The server allocates", StringComparison.Ordinal)).ToArray();

        Assert.Equal(7, verdicts.Length);
        var protobuf = Assert.Single(verdicts, verdict => verdict.Verdict == TargetVerdict.Miss);
        Assert.Contains("convert from JSON to protobuf", protobuf.Target, StringComparison.Ordinal);
        Assert.Contains("244.000 MB", protobuf.Measured, StringComparison.Ordinal);
    }

    [Fact]
    public void MissesAnUploadSlowerThanOneAndAHalfTimesTheInProcessDecode()
    {
        var results = EveryUploadAndConvert(raiseMegabytes: 40);
        var index = results.FindIndex(result => result.Scenario.Subject!.Operation == ScenarioOperation.Upload && result.Scenario.Subject!.Format == WireFormat.MessagePack && result.Copies == 1);
        results[index] = Run(ScenarioOperation.Upload, WireFormat.MessagePack, 1, 601);

        var verdicts = UploadTargets.Evaluate(results).Where(verdict => verdict.Target.Contains("in-process decode", StringComparison.Ordinal)).ToArray();

        Assert.Equal(4, verdicts.Length);
        var msgpack = Assert.Single(verdicts, verdict => verdict.Target.Contains("msgpack upload", StringComparison.Ordinal));
        Assert.Equal(TargetVerdict.Miss, msgpack.Verdict);
        Assert.Contains("against decode 400 ms (1.50x)", msgpack.Measured, StringComparison.Ordinal);
        Assert.All(verdicts.Except([msgpack]), verdict => Assert.Equal(TargetVerdict.Pass, verdict.Verdict));
    }

    [Fact]
    public void SaysAnUploadWithoutAnInProcessDecodeWasNotJudged()
    {
        var results = EveryUploadAndConvert(raiseMegabytes: 40).Select(result => result with { InProcessDecode = null }).ToList();

        Assert.All(
            UploadTargets.Evaluate(results).Where(verdict => verdict.Target.Contains("in-process decode", StringComparison.Ordinal)),
            verdict => Assert.Equal(TargetVerdict.NotRun, verdict.Verdict));
    }

    [Fact]
    public void JudgesNothingInARunWithoutUploadsOrConverts()
    {
        Assert.Empty(UploadTargets.Evaluate([Run(ScenarioOperation.Download, WireFormat.Json, 1, 100)]));
    }
}
