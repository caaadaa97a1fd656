namespace WebSerialization.Load.Tests;

public class DownloadTargetsTests
{
    private static readonly IReadOnlyList<TargetVerdict> Targets = DownloadTargets.Evaluate(SampleRun.Repeated());

    [Fact]
    public void JudgesTheSpeedUpOnTheMedianRunAndShowsTheSpread()
    {
        // The first binary run alone (61 ms) would pass 4x; the median run (67 ms) does not.
        var target = Target("binary download is at least 4x faster");

        Assert.Equal("json 253 ms (x1, 3 runs 246-258) / binary 67 ms (x1, 3 runs 61-91) = 3.78x", target.Measured);
        Assert.Equal(TargetVerdict.Miss, target.Verdict);
    }

    [Fact]
    public void JudgesTheFastestFormatOnTheMedianRuns()
    {
        var target = Target("binary download is the fastest");

        Assert.Contains("binary 67 ms (x1, 3 runs 61-91)", target.Measured, StringComparison.Ordinal);
        Assert.Equal(TargetVerdict.Pass, target.Verdict);
    }

    [Fact]
    public void JudgesAllocationsOnTheMedianRun()
    {
        // One of the three runs allocated 1.5 MB per request; the median, 0.8 MB, is within the 1 MB target.
        var target = Target("Server allocations per binary download");

        Assert.Contains("1,000,000 x1: 0.800 MB (3 runs 0.500-1.500)", target.Measured, StringComparison.Ordinal);
        // NOT RUN rather than PASS only because no 10,000-member download ran; the worst run would have missed it.
        Assert.Equal(TargetVerdict.NotRun, target.Verdict);
    }

    [Fact]
    public void JudgesTheWorkingSetOnTheRunThatRaisedItMost()
    {
        var target = Target("4 concurrent binary downloads");

        Assert.StartsWith("peak 370.0 MB - idle 300.0 MB = +70.0 MB (the largest of 3 runs)", target.Measured, StringComparison.Ordinal);
        Assert.Equal(TargetVerdict.Miss, target.Verdict);
    }

    [Fact]
    public void ShowsNoSpreadForAScenarioRunOnce()
    {
        var once = DownloadTargets.Evaluate(SampleRun.Repeated().Where(result => result.Repetition == 1).ToArray());

        Assert.Equal("json 246 ms (x1) / binary 61 ms (x1) = 4.03x", once.Single(verdict => verdict.Target.Contains("binary download is at least 4x", StringComparison.Ordinal)).Measured);
    }

    private static TargetVerdict Target(string words) => Targets.Single(verdict => verdict.Target.Contains(words, StringComparison.Ordinal));
}
