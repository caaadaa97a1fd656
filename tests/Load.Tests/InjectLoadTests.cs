using System.Diagnostics;

namespace WebSerialization.Load.Tests;

public class InjectLoadTests
{
    [Fact]
    public async Task SendsEveryRequestDueAtTheRateWhateverTheResponsesTake()
    {
        var (samples, late, _) = await InjectLoad.RunAsync(ArrivalSchedule.Constant(100, TimeSpan.FromSeconds(0.3), 1_000), (copy, start) => Respond(copy, TimeSpan.FromMilliseconds(50)), new PhaseProgress(), CancellationToken.None);

        // 30 due; each takes 50 ms, five times the interval: a closed loop would have sent 6.
        Assert.Equal(30, samples.Count);
        Assert.All(samples, sample => Assert.True(sample.Succeeded));
        Assert.True(late < 30, $"{late} of 30 were late");
    }

    [Fact]
    public async Task CountsAClientStallInTheLatencyOfTheRequestsItDelayed()
    {
        // The first send holds the scheduler's thread for 300 ms, as a stalled client would: the requests due meanwhile
        // go out late, and their latency must include that, although the server answered them at once.
        var (samples, late, _) = await InjectLoad.RunAsync(
            ArrivalSchedule.Constant(100, TimeSpan.FromSeconds(0.5), 1_000),
            (copy, start) =>
            {
                if (copy == 0)
                {
                    Thread.Sleep(300);
                }

                return Respond(copy, TimeSpan.Zero);
            },
            new PhaseProgress(),
            CancellationToken.None);

        // Request 10 was due at 100 ms and could not go before 300 ms.
        var delayed = samples[10];
        Assert.True(delayed.ScheduleDelay >= TimeSpan.FromMilliseconds(190), $"schedule delay {delayed.ScheduleDelay.TotalMilliseconds} ms");
        Assert.True(delayed.Latency >= delayed.ScheduleDelay + delayed.TimeToLastByte - TimeSpan.FromTicks(1));
        Assert.True(delayed.TimeToLastByte < TimeSpan.FromMilliseconds(100));
        Assert.True(late >= 20, $"{late} late");
        Assert.True(LatencyHistogram.Of(samples.Select(sample => sample.Latency)).ToDistribution()!.P99 >= 190);
    }

    [Fact]
    public async Task DropsAndCountsTheRequestsDueWhileTheClientsBoundIsInFlight()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var due = InjectLoad.MaxInFlight + 44;
        var progress = new PhaseProgress();
        var run = InjectLoad.RunAsync(ArrivalSchedule.Constant(due / 0.2, TimeSpan.FromSeconds(0.2), 10_000), async (copy, start) =>
        {
            await gate.Task;
            return await Respond(copy, TimeSpan.Zero);
        }, progress, CancellationToken.None);

        // The requests are held until every arrival has fallen due and been dropped or sent, however slowly a busy
        // machine runs the schedule: while they are held, a failure can only be a drop.
        var waited = Stopwatch.StartNew();
        while (progress.Failed < 44 && waited.Elapsed < TimeSpan.FromSeconds(30))
            await Task.Delay(TimeSpan.FromMilliseconds(10));

        gate.SetResult();
        var (samples, _, _) = await run;

        Assert.Equal(due, samples.Count);
        Assert.Equal(44, samples.Count(sample => sample.Error?.StartsWith(InjectLoad.DroppedError, StringComparison.Ordinal) == true));
        Assert.Equal(InjectLoad.MaxInFlight, samples.Count(sample => sample.Succeeded));
    }

    private static async Task<RequestSample> Respond(int copy, TimeSpan serverTime)
    {
        var started = Stopwatch.GetTimestamp();

        // A zero delay is a completed task, so a response without server time is made on the caller's thread.
        await Task.Delay(serverTime);
        var elapsed = Stopwatch.GetElapsedTime(started);
        return new RequestSample(copy, TimeSpan.Zero, elapsed, elapsed, 0, 1, 200, null);
    }
}
