namespace WebSerialization.Load.Tests;

public class SmokeGateTests
{
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
