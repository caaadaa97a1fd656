namespace WebSerialization.Load.Tests;

public class CpuSetTests
{
    [Theory]
    [InlineData("0", new[] { 0 }, "0")]
    [InlineData("0-3", new[] { 0, 1, 2, 3 }, "0-3")]
    [InlineData("0,2-3", new[] { 0, 2, 3 }, "0,2-3")]
    [InlineData("3, 1,2,2", new[] { 1, 2, 3 }, "1-3")]
    [InlineData("5,7,9-10", new[] { 5, 7, 9, 10 }, "5,7,9-10")]
    public void ReadsAndWritesCpuListsAsTasksetDoes(string list, int[] cpus, string written)
    {
        var set = CpuSet.Parse(list);

        Assert.Equal(cpus, set.Cpus);
        Assert.Equal(written, set.ToString());
        Assert.Equal(set, CpuSet.Parse(written));
    }

    [Theory]
    [InlineData("")]
    [InlineData("a")]
    [InlineData("3-1")]
    [InlineData("-1")]
    [InlineData("1,,2")]
    [InlineData("0-")]
    [InlineData("4096")]
    public void RefusesWhatIsNotACpuList(string list)
    {
        var error = Assert.Throws<ArgumentException>(() => CpuSet.Parse(list, "--server-cpus"));

        Assert.StartsWith($"--server-cpus: '{list}' is not a list of CPU numbers", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void IntersectsAndSubtracts()
    {
        var all = CpuSet.Parse("0-3");

        Assert.Equal("1,3", all.Except(CpuSet.Parse("0,2"))!.ToString());
        Assert.Null(all.Except(all));
        Assert.Equal("2", all.Intersect(CpuSet.Parse("2,7"))!.ToString());
        Assert.Null(CpuSet.Parse("0").Intersect(CpuSet.Parse("1")));
        Assert.True(CpuSet.Parse("1-2").IsSubsetOf(all));
        Assert.False(CpuSet.Parse("3-4").IsSubsetOf(all));
        Assert.Equal(("CPU 1", "CPUs 0,2"), (CpuSet.Parse("1").Describe(), CpuSet.Parse("0,2").Describe()));
    }
}
