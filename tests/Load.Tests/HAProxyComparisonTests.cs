namespace WebSerialization.Load.Tests;

public class HAProxyComparisonTests
{
    private static readonly CpuPlan Split = CpuPlanTests.OnTwoCpus("--through-haproxy");
    private static readonly LoadScenario MessagePack = HttpScenarios.Download(WireFormat.MessagePack, 1_000_000);
    private static readonly LoadScenario Json = HttpScenarios.Download(WireFormat.Json, 1_000_000);

    [Theory]
    [InlineData(100, 119, TargetVerdict.Pass)]
    [InlineData(100, 122, TargetVerdict.Miss)]
    [InlineData(100, 90, TargetVerdict.Pass)]
    public void JudgesADownloadThroughHAProxyAgainstTheSameStraightFromAReplica(double straightP50, double throughP50, string verdict)
    {
        IReadOnlyList<ScenarioResult> results =
        [
            SampleRun.Ran(MessagePack, 1, 100, straightP50),
            SampleRun.Ran(MessagePack, 1, 100, throughP50) with { Route = ServerRoute.ThroughHAProxy },
        ];

        var target = Assert.Single(HAProxyTargets.Evaluate(results));

        Assert.Equal("A 1,000,000-member download through HAProxy takes at most 1.2x as long as straight from a replica (p50)", target.Target);
        Assert.Equal(verdict, target.Verdict);
        Assert.Equal($"msgpack x1: through HAProxy {throughP50:0} ms / straight {straightP50:0} ms = {throughP50 / straightP50:0.00}x", target.Measured);
    }

    [Fact]
    public void MissesWhenAnyFormatIsOverTheBoundOrFailedAndJudgesTheFewestCopies()
    {
        IReadOnlyList<ScenarioResult> results =
        [
            SampleRun.Ran(MessagePack, 1, 100, 100),
            SampleRun.Ran(MessagePack, 1, 100, 110) with { Route = ServerRoute.ThroughHAProxy },
            SampleRun.Ran(MessagePack, 4, 100, 100),
            SampleRun.Ran(MessagePack, 4, 100, 300) with { Route = ServerRoute.ThroughHAProxy },
            SampleRun.Ran(Json, 1, 300, 400),
            SampleRun.Ran(Json, 1, 300, 400, failure: "502 Bad Gateway") with { Route = ServerRoute.ThroughHAProxy },
        ];

        var target = Assert.Single(HAProxyTargets.Evaluate(results));

        Assert.Equal(TargetVerdict.Miss, target.Verdict);
        Assert.Equal("json x1: a run without successful requests, or with failed ones; msgpack x1: through HAProxy 110 ms / straight 100 ms = 1.10x", target.Measured);
        Assert.Equal(TargetVerdict.Pass, Assert.Single(HAProxyTargets.Evaluate(results.Where(result => result.Scenario == MessagePack).ToArray())).Verdict);
    }

    [Fact]
    public void HasNothingToJudgeWithoutAMillionMemberDownloadMeasuredBothWays()
    {
        var small = HttpScenarios.Download(WireFormat.MessagePack, 10_000);
        IReadOnlyList<ScenarioResult> results =
        [
            SampleRun.Ran(MessagePack, 1, 100, 100),
            SampleRun.Ran(small, 1, 1, 10),
            SampleRun.Ran(small, 1, 1, 11) with { Route = ServerRoute.ThroughHAProxy },
            SampleRun.Ran(MessagePack, 1, 100, 100) with { Route = ServerRoute.ThroughHAProxy, Rate = 2 },
        ];

        var target = Assert.Single(HAProxyTargets.Evaluate(results));

        Assert.Equal((TargetVerdict.NotRun, "not run"), (target.Verdict, target.Measured));
    }

    [Fact]
    public void ComparesEachScenarioAndLoadThroughHAProxyWithStraight()
    {
        IReadOnlyList<ScenarioResult> results =
        [
            SampleRun.Ran(MessagePack, 1, 100, 200),
            SampleRun.Ran(MessagePack, 1, 100, 250) with { Route = ServerRoute.ThroughHAProxy, Elapsed = TimeSpan.FromSeconds(4) },
            SampleRun.Ran(Json, 4, 300, 400),
        ];

        var section = HAProxyComparison.Section(results, Split)!;
        var markdown = section.ToMarkdown();

        var row = Assert.Single(Assert.Single(section.Tables).Rows);
        Assert.Equal(["download-msgpack-1000000", "x1"], row.Take(2));
        Precision.AssertWithin([200, 250, 396, 495], new[] { row[2], row[3], row[5], row[6] }.Select(Precision.Number));
        Assert.Equal(["1.25x", "1.25x", "5000.0", "2500.0", "0.50x"], new[] { row[4], row[7], row[8], row[9], row[10] });
        Assert.StartsWith("## " + HAProxyComparison.Title, markdown, StringComparison.Ordinal);
        Assert.Contains($"| download-msgpack-1000000 | x1 | {row[2]} | {row[3]} | 1.25x |", markdown, StringComparison.Ordinal);
        Assert.Contains(HAProxyComparison.Title, HtmlReport.Render(SampleRun.Description, results, [], null, [], comparison: section), StringComparison.Ordinal);
        Assert.Null(HAProxyComparison.Section([SampleRun.Ran(Json, 1, 300, 400)], Split));
    }

    [Fact]
    public void KeepsTheTwoRoutesApartInTheReportsAndTheSummary()
    {
        var straight = SampleRun.Ran(MessagePack, 1, 100, 200);
        var through = straight with { Route = ServerRoute.ThroughHAProxy };

        Assert.Equal(2, RepeatedScenario.Group([straight, through]).Count);
        Assert.Equal(("download-msgpack-1000000-x1", "download-msgpack-1000000-x1-through-haproxy"), (straight.ReportName, through.ReportName));
    }

    [Fact]
    public void SaysWhereTheReplicasHAProxyAndTheClientRan()
    {
        var shared = CpuPlanTests.OnTwoCpus("--through-haproxy", "--cpu-layout", "shared");

        Assert.Equal("split: the 3 replicas and HAProxy on CPU 0 (each started under taskset -c 0, the replicas with DOTNET_PROCESSOR_COUNT=1), the load client on CPU 1", HAProxyComparison.Placement(Split));
        Assert.Equal("shared: the 3 replicas, HAProxy and the load client all on CPUs 0-1, wherever the scheduler puts them", HAProxyComparison.Placement(shared));
        Assert.Contains("Split: the 3 replicas and HAProxy on CPU 0", HAProxyComparison.Legend(Split), StringComparison.Ordinal);
    }
}
