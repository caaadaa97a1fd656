namespace WebSerialization.Load.Tests;

public class CpuLayoutComparisonTests
{
    private static readonly CpuPlan BothLayouts = CpuPlanTests.OnTwoCpus("--cpu-layout", "split,shared");
    private static readonly LoadScenario Binary = HttpScenarios.Download(WireFormat.Binary, 1_000_000);
    private static readonly LoadScenario Json = HttpScenarios.Download(WireFormat.Json, 10_000);

    [Theory]
    [InlineData(60, 40, TargetVerdict.Pass)]
    [InlineData(61, 40, TargetVerdict.Miss)]
    [InlineData(30, 40, TargetVerdict.Pass)]
    public void JudgesTheServerOnItsOwnCpusAgainstTheSharedOne(double splitP50, double sharedP50, string verdict)
    {
        IReadOnlyList<ScenarioResult> results =
        [
            SampleRun.Ran(Binary, 1, 20, splitP50) with { Layout = CpuLayout.Split },
            SampleRun.Ran(Binary, 1, 20, sharedP50) with { Layout = CpuLayout.Shared },
        ];

        var target = Assert.Single(CpuLayoutComparison.Evaluate(results, BothLayouts));

        Assert.Equal(verdict, target.Verdict);
        Assert.Contains($"split {splitP50:0} ms / shared {sharedP50:0} ms", target.Measured, StringComparison.Ordinal);
        Assert.Contains("CPU 0", target.Target, StringComparison.Ordinal);
    }

    [Fact]
    public void SaysWhatSharingTheCpusDidToEachScenario()
    {
        IReadOnlyList<ScenarioResult> results =
        [
            SampleRun.Ran(Json, 1, 1, 40) with { Layout = CpuLayout.Split, ServerCpuTime = TimeSpan.FromSeconds(2), ClientCpuTime = TimeSpan.FromSeconds(1), ClientCpuCount = 1 },
            SampleRun.Ran(Json, 1, 1, 10) with { Layout = CpuLayout.Shared, ServerCpuTime = TimeSpan.FromSeconds(1.5) },
            SampleRun.Ran(Binary, 4, 20, 100) with { Layout = CpuLayout.Split },
        ];

        var section = CpuLayoutComparison.Section(results, [], BothLayouts)!;
        var table = Assert.Single(section.Tables);

        var row = Assert.Single(table.Rows);
        Assert.Equal(["download-json-10000", "x1", "40", "10", "0.25x"], row.Take(5));
        Assert.Equal("1.00x", row[7]);
        Assert.Equal(["20.00", "15.00", "50"], row.Skip(8));
        Assert.Contains("## " + CpuLayoutComparison.Title, section.ToMarkdown(), StringComparison.Ordinal);
        Assert.Contains("| download-json-10000 | x1 | 40 | 10 | 0.25x |", section.ToMarkdown(), StringComparison.Ordinal);
    }

    [Fact]
    public void ComparesTheRateEachLayoutSustained()
    {
        var scenario = HttpScenarios.Download(WireFormat.Binary, 10_000);
        CapacityResult Search(CpuLayout layout, double rate)
        {
            var step = SampleRun.Ran(scenario, 1, 0.2, 5) with { Rate = rate, Layout = layout, ServerCpuTime = TimeSpan.FromSeconds(rate / 1000), ClientCpuTime = TimeSpan.FromSeconds(1.8), ClientCpuCount = 1 };
            return new CapacityResult(scenario, [step], step, "the rate limit");
        }

        var section = CpuLayoutComparison.Section([], [Search(CpuLayout.Split, 1000), Search(CpuLayout.Shared, 1500)], BothLayouts)!;

        var row = Assert.Single(Assert.Single(section.Tables).Rows);
        Assert.Equal(["download-binary-10000", "1000", "1500", "1.50x"], row.Take(4));
        Assert.Equal(["10.00", "15.00", "90"], row.Skip(6));
    }

    [Fact]
    public void HasNothingToCompareInARunOfOneLayout()
    {
        var split = CpuPlanTests.OnTwoCpus();
        IReadOnlyList<ScenarioResult> results = [SampleRun.Ran(Binary, 1, 20, 40) with { Layout = CpuLayout.Split }];

        Assert.Null(CpuLayoutComparison.Section(results, [], split));
        Assert.Empty(CpuLayoutComparison.Evaluate(results, split));
        Assert.Equal(TargetVerdict.NotRun, Assert.Single(CpuLayoutComparison.Evaluate([], BothLayouts)).Verdict);
    }
}
