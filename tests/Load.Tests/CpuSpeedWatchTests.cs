using WebSerialization.Load.Server;

namespace WebSerialization.Load.Tests;

public sealed class CpuSpeedWatchTests
{
    [Fact]
    public void CountsPerCpuTheProbesWithinAQuarterOfItsFastestAndGivesTheSlowest()
    {
        var text = CpuSpeedWatch.Describe([(1, [100, 101, 126, 190]), (0, [50, 55, 62.5]), (2, [])]);

        Assert.EndsWith(
            ": CPU 0 within 1.25x of its fastest in 3 of 3 probes (slowest 1.25x); CPU 1 within 1.25x of its fastest in 2 of 4 probes (slowest 1.90x)",
            text,
            StringComparison.Ordinal);
    }

    [Fact]
    public void SaysSoWhenNothingWasProbed() => Assert.Equal("not probed", CpuSpeedWatch.Describe([(0, [])]));

    [Fact]
    public async Task ProbesEveryCpuOfTheProcessOnceASecondAndLeavesItsThreadsWhereTheyWere()
    {
        var before = CpuAffinity.OfThreads(Environment.ProcessId).Distinct().ToArray();
        var cpus = CpuAffinity.OfProcess(Environment.ProcessId)!;

        var watch = CpuSpeedWatch.Start()!;
        await Task.Delay(TimeSpan.FromSeconds(2.6));
        var text = watch.Stop();

        foreach (var cpu in cpus.Cpus)
            Assert.Matches($@"CPU {cpu} within 1\.25x of its fastest in \d of [23] probes", text);

        Assert.Equal(before, CpuAffinity.OfThreads(Environment.ProcessId).Distinct().ToArray());
    }
}
