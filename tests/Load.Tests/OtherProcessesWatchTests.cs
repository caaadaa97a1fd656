using System.Diagnostics;
using System.Text.RegularExpressions;
using static WebSerialization.Load.Server.OtherProcessesWatch;

namespace WebSerialization.Load.Tests;

public sealed class OtherProcessesWatchTests
{
    private const int Runner = 100;

    [Fact]
    public void ReadsAStatLineWhoseNameHoldsSpacesAndParentheses()
    {
        var sample = ProcessSample.Parse("4242 (my (odd) name) S 17 4242 4242 0 -1 4194304 10 0 0 0 250 31 0 0 20 0 3 0 987654 1000 200");

        Assert.Equal(new ProcessSample(4242, 17, "my (odd) name", 987654, 281), sample);
    }

    [Fact]
    public void CountsWhatOthersUsedDuringTheRunAndLeavesOutTheRunnersTreeAndTheKernel()
    {
        var tally = new OtherProcessesTally(Runner);
        tally.Add([Sample(Runner, 1, "runner", 10), Sample(200, Runner, "server", 0), Sample(300, 1, "busy", 1000), Sample(400, 2, "kworker", 50)], atStart: true);
        tally.Add([Sample(Runner, 1, "runner", 500), Sample(200, Runner, "server", 900), Sample(300, 1, "busy", 1050), Sample(400, 2, "kworker", 500), Sample(500, 1, "late", 20)], atStart: false);

        // The server, orphaned, stays the runner's; the late process counts from its start; a reused pid is another process.
        tally.Add([Sample(Runner, 1, "runner", 900), Sample(200, 1, "server", 1800), Sample(300, 1, "busy", 1100), Sample(500, 1, "late", 50), Sample(400, 1, "new", 5, startTicks: 9)], atStart: false);

        Assert.Equal(
            "processes outside the runner, its servers and the kernel's threads used 15.5 % of one CPU over the run: busy (pid 300) 10.0 %, late (pid 500) 5.0 %",
            tally.Describe(TimeSpan.FromSeconds(10)));
    }

    [Fact]
    public void SaysSoWhenNoOtherProcessUsedOnePercent()
    {
        var tally = new OtherProcessesTally(Runner);
        tally.Add([Sample(300, 1, "idle", 100)], atStart: true);
        tally.Add([Sample(300, 1, "idle", 105)], atStart: false);

        Assert.Equal("processes outside the runner, its servers and the kernel's threads used 0.5 % of one CPU over the run (none 1 % or more)", tally.Describe(TimeSpan.FromSeconds(10)));
    }

    // A busy process and the idle shell that started it, seen by two watches at once: one whose runner is that shell, so
    // the busy process is in the runner's tree, and one with no runner at all. Everything else on the machine counts the
    // same in both (each figure is a share of its own watch's time), so the second's total is the first's plus the busy
    // process's CPU. Compared by totals rather than by the names the description picks: on a loaded machine (a CI build
    // beside the tests) other processes can outrank the busy one there.
    [Fact]
    public async Task CountsABusyProcessUnlessItIsTheRunners()
    {
        using var shell = Process.Start(new ProcessStartInfo("sh", ["-c", "while :; do :; done & wait"]))!;
        string seenByItsRunner, seenFromNowhere;
        await using (var fromItsRunner = OtherProcessesWatch.Start(shell.Id)!)
        await using (var fromNowhere = OtherProcessesWatch.Start(runnerProcessId: -1)!)
        {
            await Task.Delay(TimeSpan.FromSeconds(2.5));
            shell.Kill(entireProcessTree: true);
            await shell.WaitForExitAsync();
            seenByItsRunner = await fromItsRunner.StopAsync();
            seenFromNowhere = await fromNowhere.StopAsync();
        }

        Assert.InRange(TotalPercent(seenFromNowhere) - TotalPercent(seenByItsRunner), 5, 110);
    }

    private static double TotalPercent(string description) =>
        Precision.Number(Regex.Match(description, @" used (\d+\.\d) % of one CPU").Groups[1].Value);

    private static ProcessSample Sample(int processId, int parentId, string name, long cpuTicks, long startTicks = 1) =>
        new(processId, parentId, name, startTicks, cpuTicks);
}

public sealed class OtherWorkInReportsTests
{
    private const string OtherWork = "processes outside the runner, its servers and the kernel's threads used 4.2 % of one CPU over the run: dotnet (pid 948) 4.1 %";

    [Fact]
    public void TheSummaryAndThePageSayWhatElseRan()
    {
        var run = SampleRun.Description with { OtherWork = OtherWork };
        var results = SampleRun.Results();

        Assert.Contains($"- Other work: {OtherWork}\n", MarkdownReport.Summary(run, results, [], null, []).ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Contains($"<dt>Other work</dt>", HtmlReport.Render(run, results, [], null, []), StringComparison.Ordinal);
        Assert.DoesNotContain("Other work", MarkdownReport.Summary(SampleRun.Description, results, [], null, []), StringComparison.Ordinal);
    }
}
