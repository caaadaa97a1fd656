using System.Text.RegularExpressions;
using WebSerialization.Load.Server;

namespace WebSerialization.Load.Tests;

public sealed class CpuSpeedWatchTests
{
    [Fact]
    public void GivesPerCpuTheLoopsBestAndSlowProbesAndTheLoadsBestAndMedian()
    {
        var text = CpuSpeedWatch.Describe([(1, [400_000, 404_000, 504_000, 760_000], [200_000, 200_000, 200_000, 200_000]), (0, [500_000, 550_000, 625_000], [300_000, 600_000, 330_000])]);

        Assert.EndsWith(
            ": CPU 0: loop best 500 µs, 0 of 3 probes slow (slowest 1.25x), load best 150 ns, median 165 ns; "
            + "CPU 1: loop best 400 µs, 2 of 4 probes slow (slowest 1.90x), load best 100 ns, median 100 ns; a loop is slow beyond 1.25x its best, and the loads' median includes the run's own memory traffic",
            text,
            StringComparison.Ordinal);
    }

    [Fact]
    public void SaysSoWhenNothingWasProbed() => Assert.Equal("not probed", CpuSpeedWatch.Describe([(0, [], [])]));

    [Fact]
    public async Task ProbesEveryCpuOfTheProcessOnceASecondAndLeavesItsThreadsWhereTheyWere()
    {
        var before = CpuAffinity.OfThreads(Environment.ProcessId).Distinct().ToArray();
        var cpus = CpuAffinity.OfProcess(Environment.ProcessId)!;

        var watch = CpuSpeedWatch.Start()!;
        await Task.Delay(TimeSpan.FromSeconds(4.5));
        var text = watch.Stop();

        foreach (var cpu in cpus.Cpus)
            Assert.True(Regex.IsMatch(text, $@"CPU {cpu}: loop best [1-9]\d* µs, \d of [2-5] probes slow \(slowest \d\.\d\dx\), load best [1-9]\d* ns, median [1-9]\d* ns"), text);

        Assert.Equal(before, CpuAffinity.OfThreads(Environment.ProcessId).Distinct().ToArray());
    }
}
