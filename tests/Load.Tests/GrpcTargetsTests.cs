namespace WebSerialization.Load.Tests;

public class GrpcTargetsTests
{
    [Theory]
    [InlineData(150, TargetVerdict.Pass)]
    [InlineData(151, TargetVerdict.Miss)]
    public void StreamPassesAtMostOneAndAHalfTimesTheHttpProtobufDownload(double streamP50, string verdict)
    {
        ScenarioResult[] results =
        [
            SampleRun.Ran(HttpScenarios.Download(WireFormat.Protobuf, 1_000_000), 1, 82.8, 100),
            SampleRun.Ran(GrpcScenarios.Stream(1_000_000), 1, 82.8, streamP50),
        ];

        var time = GrpcTargets.Evaluate(results)[0];

        Assert.Equal(verdict, time.Verdict);
        Assert.Contains("/ download 100 ms (x1)", time.Measured, StringComparison.Ordinal);
    }

    [Fact]
    public void TargetsAreNotRunWithoutMillionMemberStreams()
    {
        var verdicts = GrpcTargets.Evaluate([SampleRun.Ran(GrpcScenarios.Stream(10_000), 1, 0.8, 5)]);

        Assert.All(verdicts, verdict => Assert.Equal(TargetVerdict.NotRun, verdict.Verdict));
    }
}
