namespace WebSerialization.Load.Tests;

public class LoadOptionsTests
{
    [Fact]
    public void RunsEachScenarioOnceByDefaultAndInTheSmoke()
    {
        Assert.Equal(1, LoadOptions.Parse([]).Repetitions);
        Assert.Equal(1, LoadOptions.Parse(["--smoke"]).Repetitions);
    }

    [Theory]
    [InlineData("1", 1)]
    [InlineData("3", 3)]
    [InlineData("20", 20)]
    public void ReadsTheNumberOfRepetitions(string value, int repetitions)
    {
        Assert.Equal(repetitions, LoadOptions.Parse(["--scenarios", "download", "--repeat", value]).Repetitions);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("21")]
    [InlineData("-1")]
    [InlineData("three")]
    [InlineData("1.5")]
    [InlineData("2,3")]
    public void RefusesARepetitionCountOutsideOneToTwenty(string value)
    {
        var error = Assert.Throws<ArgumentException>(() => LoadOptions.Parse(["--repeat", value]));

        Assert.Equal($"--repeat: '{value}' is not a whole number from 1 to 20.", error.Message);
    }

    [Fact]
    public void RefusesRepeatWithoutAValue()
    {
        Assert.Equal("Option '--repeat' needs a value.", Assert.Throws<ArgumentException>(() => LoadOptions.Parse(["--repeat"])).Message);
    }

    [Fact]
    public void RefusesRepeatInTheSmoke()
    {
        var error = Assert.Throws<ArgumentException>(() => LoadOptions.Parse(["--smoke", "--repeat", "3"]));

        Assert.Contains("--smoke", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RefusesAListWhereOneNumberIsExpected()
    {
        Assert.Throws<ArgumentException>(() => LoadOptions.Parse(["--max-requests", "10,20"]));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("x")]
    public async Task ExitsWithCode2OnABadRepetitionCountBeforeStartingAnything(string value)
    {
        Assert.Equal(2, await LoadRun.RunAsync(["--repeat", value]));
    }

    [Fact]
    public void HelpDescribesRepeat()
    {
        Assert.Contains("--repeat N", LoadOptions.Usage, StringComparison.Ordinal);
        Assert.Contains("fresh", LoadOptions.Usage, StringComparison.Ordinal);
    }
}
