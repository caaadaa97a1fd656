namespace WebSerialization.Load.Tests;

public class CapacitySearchTests
{
    private static readonly CapacitySearch Search = new(50, 1.5, 400, TimeSpan.FromMilliseconds(100));

    private static readonly LoadScenario Download = HttpScenarios.Download(WireFormat.MessagePack, 10_000);

    [Fact]
    public void StepsTheRateUpByItsFactorToTheMaximum() => Assert.Equal([50, 75, 113, 169, 253, 380], Search.Rates());

    // Rows: the last rate before the p99 crosses the bound is sustained (SampleRun's p99 is 1.98 x its p50: 40, 45 and
    // 60 ms p50 give p99 79, 89 and 119 ms); the first failed request stops the search whatever the latency; nothing is
    // sustained when the first step misses.
    [Theory]
    [InlineData(new double[] { 40, 45, 60 }, -1, 75, "113/s: p99 11")]
    [InlineData(new double[] { 1, 1 }, 1, 50, "75/s: 1 failed (dropped")]
    [InlineData(new double[] { 80 }, -1, 0, "50/s: p99 15")]
    public void SustainsTheLastRateBeforeAStepMisses(double[] p50s, int failedStep, double sustained, string stop)
    {
        double[] rates = [50, 75, 113];
        var steps = p50s.Select((p50, index) => Step(rates[index], p50, index == failedStep ? "dropped: 256 requests were in flight when it fell due" : null)).ToArray();

        var capacity = Search.Conclude(Download, steps);

        Assert.Equal(sustained, capacity.SustainedRate);
        Assert.Equal(sustained == 0, capacity.Sustained is null);
        Assert.StartsWith(stop, capacity.Stop, StringComparison.Ordinal);
    }

    [Fact]
    public void RunsAMissedRateAgainAndGoesOnWhenTheRetryPasses()
    {
        var search = Search with { Attempts = 2 };
        var ran = new List<ScenarioResult>();
        var p50s = new Queue<double>([1, 1, 80, 1, 80, 80]);

        foreach (var rate in search.Plan(ran))
        {
            ran.Add(Step(rate, p50s.Dequeue()));
        }

        Assert.Equal([50, 75, 113, 113, 169, 169], ran.Select(step => step.Rate!.Value));
        var capacity = search.Conclude(Download, ran);
        Assert.Equal(113, capacity.SustainedRate);
        Assert.Same(ran[3], capacity.Sustained);
        Assert.StartsWith("169/s: p99 15", capacity.Stop, StringComparison.Ordinal);
        Assert.Contains("and on 1 more run: p99 15", capacity.Stop, StringComparison.Ordinal);
    }

    [Fact]
    public void WithOneAttemptTheFirstMissEndsTheSearch()
    {
        var ran = new List<ScenarioResult>();
        foreach (var rate in Search.Plan(ran))
        {
            ran.Add(Step(rate, rate > 60 ? 80 : 1));
        }

        Assert.Equal([50, 75], ran.Select(step => step.Rate!.Value));
        Assert.Equal(50, Search.Conclude(Download, ran).SustainedRate);
    }

    [Fact]
    public void ChartsTheSustainedRateOfEachFormat()
    {
        var capacities = WireFormat.All.Select((format, index) =>
            Search.Conclude(HttpScenarios.Download(format, 10_000), [Step(50, 1), Step(75, 1), Step(113, index * 30)])).ToArray();

        var chart = CapacityReport.Chart(capacities)!;

        var bars = Assert.Single(chart.Panels).Bars;
        Assert.Equal([113, 113, 75, 75], bars.Select(bar => bar.Value));
        Assert.Equal(4, CapacityReport.Table(capacities).Rows.Count);
    }

    [Fact]
    public void TheHtmlReportHasTheCapacityTable()
    {
        var capacity = Search.Conclude(Download, [Step(50, 1), Step(75, 60)]);

        var page = HtmlReport.Render(SampleRun.Description, capacity.Steps, [], ending: null, [], [capacity]);

        Assert.Contains("<h2>Capacity</h2>", page, StringComparison.Ordinal);
        Assert.Contains("75/s: p99", page, StringComparison.Ordinal);
    }

    private static ScenarioResult Step(double rate, double p50Milliseconds, string? failure = null) =>
        SampleRun.Ran(Download, 1, 0.78, p50Milliseconds, failure) with { Rate = rate };
}
