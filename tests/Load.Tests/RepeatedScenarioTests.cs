namespace WebSerialization.Load.Tests;

public class RepeatedScenarioTests
{
    // Rows: the middle value, the mean of the middle two, a single value; what was not measured (-) is left out.
    [Theory]
    [InlineData("91,61,67", 67.0)]
    [InlineData("4,1,3,2", 2.5)]
    [InlineData("7", 7.0)]
    [InlineData("-,10,30,-", 20.0)]
    [InlineData("-", null)]
    public void MedianIsTheMiddleValueOrTheMeanOfTheMiddleTwo(string values, double? median) =>
        Assert.Equal(median, ScenarioFigures.Median(values.Split(',').Select(value => value == "-" ? (double?)null : Precision.Number(value))));

    [Fact]
    public void GroupsTheRunsOfEachScenarioAndCopiesInTheOrderTheyFirstRan()
    {
        var scenarios = RepeatedScenario.Group(SampleRun.Repeated());

        Assert.Equal(["download-json-1000000-x1", "download-binary-1000000-x1", "download-binary-1000000-x4"], scenarios.Select(scenario => scenario.ReportName));
        Assert.All(scenarios, scenario => Assert.Equal([1, 2, 3], scenario.Repetitions.Select(repetition => repetition.Repetition)));
        Assert.All(scenarios, scenario => Assert.True(scenario.IsRepeated));
    }

    [Fact]
    public void TakesTheMedianOfEachFigureAndTheSpreadOfP50()
    {
        var binary = Binary(copies: 1);

        Precision.AssertWithin([67, 1.9 * 67], [binary.Figures.P50!.Value, binary.Figures.P95!.Value]);
        Assert.Equal(0.8, binary.Figures.AllocatedBytesPerRequest!.Value / Units.BytesPerMegabyte, 9);
        Assert.Equal(1, binary.Figures.Gen2Collections);
        Precision.AssertWithin([61, 91], [binary.P50Spread!.Value.Low, binary.P50Spread!.Value.High]);
    }

    [Fact]
    public void AddsUpTheRequestsOfAllRuns() =>
        Assert.Equal((300, 0), (Binary(copies: 1).Figures.Succeeded, Binary(copies: 1).Figures.Failed));

    [Fact]
    public void TakesTheWorkingSetOfTheRunThatRaisedItMost()
    {
        var figures = Binary(copies: 4).Figures;

        Assert.Equal(370L << 20, figures.PeakWorkingSet);
        Assert.Equal(70L << 20, figures.WorkingSetRaise);
    }

    [Fact]
    public void ARunsOwnFiguresAreItsFiguresWhenItRanOnce()
    {
        var result = SampleRun.Results()[0];
        var once = RepeatedScenario.Group([result]).Single();

        Assert.False(once.IsRepeated);
        Assert.Equal(ScenarioFigures.Of(result), once.Figures);
        Precision.AssertWithin([40, 40], [once.P50Spread!.Value.Low, once.P50Spread!.Value.High]);
    }

    [Fact]
    public void RanWhenAnyRunRanAndSkippedOnlyWhenAllWere()
    {
        var scenario = HttpScenarios.Upload(WireFormat.Json, 10_000);
        var ran = SampleRun.Ran(scenario, 1, 1, 10);
        var couldNot = new ScenarioResult(scenario, 1, ScenarioOutcome.CouldNotRun, "the server exited") { Repetition = 2 };
        var skipped = new ScenarioResult(scenario, 1, ScenarioOutcome.Skipped, "404");

        Assert.Equal(ScenarioOutcome.Ran, new RepeatedScenario(scenario, 1, [ran, couldNot]).Outcome);
        Assert.Equal(ScenarioOutcome.CouldNotRun, new RepeatedScenario(scenario, 1, [couldNot, skipped]).Outcome);
        Assert.Equal(ScenarioOutcome.Skipped, new RepeatedScenario(scenario, 1, [skipped]).Outcome);
        Assert.True(new RepeatedScenario(scenario, 1, [ran, couldNot]).HasFailures);
    }

    private static RepeatedScenario Binary(int copies) =>
        RepeatedScenario.Group(SampleRun.Repeated()).Single(scenario => scenario.Scenario.Subject!.Format == WireFormat.Binary && scenario.Copies == copies);
}
