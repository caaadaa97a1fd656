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
        Assert.Contains("json peak 555.0 MB - idle 300.0 MB = +255.0 MB", verdicts[0].Measured, StringComparison.Ordinal);
        Assert.Equal(TargetVerdict.Miss, verdicts[1].Verdict);
    }

    // Rows: a convert slower than 1.25 times the slower of the JSON upload and its format's download; an upload slower
    // than 1.5 times the in-process decode of the same bytes. The other verdicts of the same target pass.
    [Theory]
    [InlineData("convert", "binary", 626, "x the slower of", 3, "to binary takes", "(1.25x the slower)")]
    [InlineData("upload", "msgpack", 601, "in-process decode", 4, "msgpack upload", "against decode 400 ms (1.50x)")]
    public void MissesAnUploadOrConvertSlowerThanItsBound(string operation, string formatKey, double p50, string target, int count, string which, string measured)
    {
        var (kind, format) = (operation == "convert" ? ScenarioOperation.Convert : ScenarioOperation.Upload, WireFormat.FromKey(formatKey)!);
        var results = EveryUploadAndConvert(raiseMegabytes: 40);
        var index = results.FindIndex(result => result.Scenario.Subject!.Operation == kind && result.Scenario.Subject!.Format == format && result.Copies == 1);
        results[index] = Run(kind, format, 1, p50);

        var verdicts = UploadTargets.Evaluate(results).Where(verdict => verdict.Target.Contains(target, StringComparison.Ordinal)).ToArray();

        Assert.Equal(count, verdicts.Length);
        var slow = Assert.Single(verdicts, verdict => verdict.Target.Contains(which, StringComparison.Ordinal));
        Assert.Equal(TargetVerdict.Miss, slow.Verdict);
        Assert.Contains(measured, slow.Measured, StringComparison.Ordinal);
        Assert.All(verdicts.Except([slow]), verdict => Assert.Equal(TargetVerdict.Pass, verdict.Verdict));
    }

    [Fact]
    public void SaysWhatAnUploadAndAConvertCostTheServerWhenItsCpuTimeWasRead()
    {
        var cpuPerRequest = new Dictionary<ScenarioOperation, double> { [ScenarioOperation.Upload] = 170, [ScenarioOperation.Download] = 100, [ScenarioOperation.Convert] = 250 };
        var results = EveryUploadAndConvert(raiseMegabytes: 40)
            .Select(result => result with { ServerCpuTime = TimeSpan.FromMilliseconds(result.Samples.Count * cpuPerRequest[result.Scenario.Subject!.Operation]) })
            .ToList();

        var binary = Assert.Single(UploadTargets.Evaluate(results), verdict => verdict.Target.Contains("to binary takes", StringComparison.Ordinal));

        Assert.EndsWith("(1.10x the slower); server CPU per request: convert 250 ms, upload 170 + download 100 = 270 ms", binary.Measured, StringComparison.Ordinal);
        var json = Assert.Single(UploadTargets.Evaluate(results), verdict => verdict.Target.Contains("json upload takes at most 1.5x the in-process decode", StringComparison.Ordinal));
        Assert.EndsWith("(1.25x); server CPU per upload 170 ms", json.Measured, StringComparison.Ordinal);
        Assert.All(
            UploadTargets.Evaluate(EveryUploadAndConvert(raiseMegabytes: 40)),
            verdict => Assert.DoesNotContain("server CPU", verdict.Measured, StringComparison.Ordinal));
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
        Assert.EndsWith("upload 500 ms (x1) / download 300 ms (x1) = 1.67x", binary.Measured, StringComparison.Ordinal);
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
    public void SaysAnUploadWithoutAnInProcessDecodeWasNotJudged()
    {
        var results = EveryUploadAndConvert(raiseMegabytes: 40).Select(result => result with { InProcessDecode = null }).ToList();

        Assert.All(
            UploadTargets.Evaluate(results).Where(verdict => verdict.Target.Contains("in-process decode", StringComparison.Ordinal)),
            verdict => Assert.Equal(TargetVerdict.NotRun, verdict.Verdict));
    }

    [Fact]
    public void JudgesNothingInARunWithoutUploadsOrConverts() =>
        Assert.Empty(UploadTargets.Evaluate([Run(ScenarioOperation.Download, WireFormat.Json, 1, 100)]));

    [Fact]
    public void JudgesTheConvertsWhereTheServerHasMoreThanOneCoreWhenTheRunMeasuredIt()
    {
        // On one core a convert costs both halves (MISS); with two they overlap (PASS). Every other target stays split's.
        var split = EveryUploadAndConvert(raiseMegabytes: 40)
            .Select(result => result.Scenario.Subject!.Operation == ScenarioOperation.Convert && result.Copies == 1 ? Run(ScenarioOperation.Convert, result.Scenario.Subject.Format, 1, 900) : result)
            .ToList();
        var shared = EveryUploadAndConvert(raiseMegabytes: 40);

        var alone = UploadTargets.Evaluate(split);
        var judged = UploadTargets.Evaluate(split, (shared, "shared: CPUs 0-1"));

        var splitConverts = alone.Where(verdict => verdict.Target.Contains("takes at most 1.25x", StringComparison.Ordinal)).ToArray();
        Assert.Equal(3, splitConverts.Length);
        Assert.All(splitConverts, verdict => Assert.Equal(TargetVerdict.Miss, verdict.Verdict));
        var sharedConverts = judged.Where(verdict => verdict.Target.EndsWith("(p50); judged where the server has more than one core: shared: CPUs 0-1", StringComparison.Ordinal)).ToArray();
        Assert.Equal(3, sharedConverts.Length);
        Assert.All(sharedConverts, verdict => Assert.Equal(TargetVerdict.Pass, verdict.Verdict));
        Assert.All(sharedConverts, verdict => Assert.StartsWith("convert 550 ms (x1) against upload 500 ms (x1)", verdict.Measured, StringComparison.Ordinal));
        Assert.Equal(alone.Except(splitConverts), judged.Except(sharedConverts));
    }
}
