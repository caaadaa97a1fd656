using System.Diagnostics;

namespace WebSerialization.Load.Tests;

/// <summary>Pinning this very process: alone, so that no other test runs on the one CPU it is given meanwhile.</summary>
[CollectionDefinition(nameof(CpuAffinityTests), DisableParallelization = true)]
public sealed class CpuAffinityCollection;

[Collection(nameof(CpuAffinityTests))]
public class CpuAffinityTests
{
    [Fact]
    public async Task PinsEveryThreadOfTheRunnerAndThreadsStartedAfterwards()
    {
        Assert.True(CpuAffinity.IsSupported, "the runner pins CPUs on Linux, which these tests run on");
        var original = CpuAffinity.OfProcess(Environment.ProcessId)!;
        var last = CpuSet.Of([original.Cpus[^1]]);
        try
        {
            await CpuAffinity.PinThisProcessAsync(last, CancellationToken.None);

            CpuSet? later = null;
            var thread = new Thread(() => later = CpuAffinity.OfThreads(Environment.ProcessId).Last());
            thread.Start();
            thread.Join();
            var threads = CpuAffinity.OfThreads(Environment.ProcessId);
            Assert.Equal(last, later);
            Assert.True(threads.Count > 1);
            Assert.All(threads, cpus => Assert.Equal(last, cpus));
            Assert.Equal(last, CpuAffinity.OfProcess(Environment.ProcessId));
        }
        finally
        {
            await CpuAffinity.PinThisProcessAsync(original, CancellationToken.None);
        }

        Assert.All(CpuAffinity.OfThreads(Environment.ProcessId), cpus => Assert.Equal(original, cpus));
    }

    [Fact]
    public async Task StartsTheServerUnderTasksetWithItsProcessorCount()
    {
        var cpus = CpuSet.Of([CpuAffinity.OfProcess(Environment.ProcessId)!.Cpus[^1]]);

        var start = ApiProcessStart.Info("/app/WebSerialization.Api.dll", new Uri("http://127.0.0.1:5000"), 8081, 10, new Dictionary<string, string>(), cpus);

        Assert.Equal(ApiProcessStart.TasksetPath, start.FileName);
        Assert.Equal(["-c", cpus.ToString(), DotnetHost.Path, "/app/WebSerialization.Api.dll", "--urls", "http://127.0.0.1:5000"], start.ArgumentList);
        Assert.Equal("1", start.Environment["DOTNET_PROCESSOR_COUNT"]);

        // taskset runs the command in its own process, so the pid started is the pinned one.
        using var sleeper = Process.Start(new ProcessStartInfo(ApiProcessStart.TasksetPath, ["-c", cpus.ToString(), "sleep", "5"]))!;
        try
        {
            var seen = CpuAffinity.OfProcess(sleeper.Id);
            for (var attempt = 0; attempt < 50 && !cpus.Equals(seen); attempt++)
            {
                // Until taskset has set the affinity and run sleep.
                await Task.Delay(20);
                seen = CpuAffinity.OfProcess(sleeper.Id);
            }

            Assert.Equal(cpus, seen);
        }
        finally
        {
            sleeper.Kill();
        }
    }

    [Fact]
    public void LeavesAnUnpinnedServerToTheDotnetHost()
    {
        var start = ApiProcessStart.Info("/app/WebSerialization.Api.dll", new Uri("http://127.0.0.1:5000"), 8081, 10, new Dictionary<string, string>());

        Assert.Equal(DotnetHost.Path, start.FileName);
        Assert.False(start.Environment.ContainsKey("DOTNET_PROCESSOR_COUNT"));
    }
}
