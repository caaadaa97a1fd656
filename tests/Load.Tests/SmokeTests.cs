using WebSerialization.Load.Scenarios.Examples;

namespace WebSerialization.Load.Tests;

public class SmokeTests
{
    [Fact]
    public void RunsEveryScenarioAtTenThousandMembersAndTheJsonDownloadOfAMillion()
    {
        var scenarios = ScenarioSelection.Select(LoadOptions.Parse(["--smoke"]));
        var large = Assert.Single(scenarios, scenario => scenario.Subject!.MemberCount > LoadOptions.SmokeMemberCount);
        Assert.Equal("download-json-1000000", large.Name);
        Assert.Equal(ScenarioSelection.Select(new LoadOptions { MemberCounts = [LoadOptions.SmokeMemberCount] }).Select(scenario => scenario.Name),
            scenarios.Where(scenario => scenario != large).Select(scenario => scenario.Name));
    }

    [Fact]
    public void RunsTheScenariosRegisteredInCodeAfterTheBuiltInOnes()
    {
        var example = BrotliRoundTrip.Create();

        var smoke = ScenarioSelection.Select(LoadOptions.Parse(["--smoke"]), [example]);
        var named = ScenarioSelection.Select(LoadOptions.Parse(["--scenarios", "brotli"]), [example]);
        var byDefault = ScenarioSelection.Select(new LoadOptions(), [example]);

        Assert.Equal(BrotliRoundTrip.Name, smoke[^1].Name);
        Assert.Equal([BrotliRoundTrip.Name], named.Select(scenario => scenario.Name));
        Assert.DoesNotContain(byDefault, scenario => scenario.Name == BrotliRoundTrip.Name);
    }

    [Fact]
    public void RefusesTwoRegisteredScenariosOfOneName()
    {
        var runner = LoadRunner.RegisterScenarios(BrotliRoundTrip.Create());
        Assert.Throws<ArgumentException>(() => runner.AndScenarios(BrotliRoundTrip.Create()));
        Assert.Equal([BrotliRoundTrip.Name], runner.Registered.Select(scenario => scenario.Name));
    }

    [Theory]
    [InlineData(1_000_000, 0.12, true)]
    [InlineData(1_000_000, 0.16, false)] // about what one async state machine per awaited flush makes of it, under the 1 MB target
    [InlineData(1_000_000, 1.14, false)]
    [InlineData(10_000, 1.14, true)]
    [InlineData(10_000, 4.5, false)]
    public void HoldsAMillionMemberDownloadToItsBudget(int members, double allocatedMegabytes, bool passes)
    {
        var result = SampleRun.Ran(HttpScenarios.Download(WireFormat.Json, members), 1, 1, 10) with { ServerCost = new ServerCost(100, (long)(100 * allocatedMegabytes * Units.BytesPerMegabyte), 8, 1_000, 12, 3, 0, 4.5) };

        Assert.Equal(passes, SmokeGate.Problems([result]).Count == 0);
    }
}
