using System.Diagnostics;

namespace WebSerialization.Load.Engine;

/// <summary>
/// An open-model load, NBomber's <c>Inject(rate, interval, during)</c>: request <c>i</c> is due at <c>i / rate</c> seconds
/// from the phase's start and is sent then, whatever the server is doing, so a stalled server meets the requests it
/// would have got rather than a client that politely waits. Latency is measured from each request's intended start
/// (<see cref="RequestSample.ScheduleDelay"/>), so a schedule that ran late, because the client itself stalled, counts
/// in the latency instead of hiding the queue (no coordinated omission). A request due while <see cref="MaxInFlight"/>
/// are still waiting is not sent and counts as failed (dropped): the client's bound on its own memory and sockets.
/// </summary>
public static class InjectLoad
{
    /// <summary>Requests in flight at once; one more that falls due is dropped.</summary>
    public const int MaxInFlight = 256;

    /// <summary>A request sent later than this after its intended start counts as late (it is still sent and measured).</summary>
    public static readonly TimeSpan LateAfter = TimeSpan.FromMilliseconds(10);

    /// <summary>The start of a dropped request's error.</summary>
    public const string DroppedError = "dropped:";

    /// <summary>Runs one phase whose requests fall due on <paramref name="schedule"/> and returns every request's sample.</summary>
    /// <param name="send">Sends one request: the request's number (its "copy") and the phase start in, a sample out.</param>
    public static async Task<(IReadOnlyList<RequestSample> Samples, int Late, TimeSpan Elapsed)> RunAsync(
        ArrivalSchedule schedule,
        Func<int, long, Task<RequestSample>> send,
        PhaseProgress progress,
        CancellationToken cancellationToken)
    {
        var due = schedule.Count;
        var samples = new RequestSample[due];
        var sent = new Task[due];
        var inFlight = 0;
        var late = 0;
        var start = Stopwatch.GetTimestamp();
        for (var i = 0; i < due; i++)
        {
            var intended = schedule.DueAt(i);
            var wait = intended - Stopwatch.GetElapsedTime(start);
            if (wait > TimeSpan.FromMilliseconds(1))
            {
                await Task.Delay(wait, cancellationToken);
            }

            cancellationToken.ThrowIfCancellationRequested();
            var index = i;
            if (Volatile.Read(ref inFlight) >= MaxInFlight)
            {
                var dropped = new RequestSample(index, intended, null, TimeSpan.Zero, 0, 0, 0,
                    string.Create(CultureInfo.InvariantCulture, $"{DroppedError} {MaxInFlight} requests were in flight when it fell due"));
                samples[index] = dropped;
                progress.Record(dropped);
                sent[index] = Task.CompletedTask;
                continue;
            }

            Interlocked.Increment(ref inFlight);

            // Started on the scheduler's own thread, up to the request's first await: whatever the client does
            // synchronously delays the next requests, and their lateness is measured and counted.
            sent[index] = SendOneAsync(index, intended);
        }

        async Task SendOneAsync(int index, TimeSpan intended)
        {
            try
            {
                var delay = Stopwatch.GetElapsedTime(start) - intended;
                if (delay > LateAfter)
                {
                    Interlocked.Increment(ref late);
                }

                var sample = await send(index, start) with { ScheduleDelay = delay > TimeSpan.Zero ? delay : TimeSpan.Zero };
                samples[index] = sample;
                progress.Record(sample);
            }
            finally
            {
                Interlocked.Decrement(ref inFlight);
            }
        }

        await Task.WhenAll(sent);
        return (samples, late, Stopwatch.GetElapsedTime(start));
    }
}
