using System.Diagnostics;

namespace WebSerialization.Load.Engine;

/// <summary>
/// A closed-model load, NBomber's <c>KeepConstant(copies, during)</c>: <c>copies</c> loops run side by side, each
/// sending its next request as soon as the previous one has ended, until the phase's time is up. A request started
/// before the end finishes (bounded by its own timeout), so the phase ends when the last copy's last request does.
/// The phase also stops starting requests once <c>maxRequests</c> have been started, so it is bounded in count too.
/// </summary>
public static class KeepConstantLoad
{
    /// <summary>Runs one phase and returns every request's sample, in completion order per copy.</summary>
    /// <param name="send">Sends one request: the copy number and the phase start timestamp in, a sample out.</param>
    public static async Task<(IReadOnlyList<RequestSample> Samples, TimeSpan Elapsed)> RunAsync(
        string label,
        int copies,
        TimeSpan during,
        int maxRequests,
        Func<int, long, Task<RequestSample>> send,
        CancellationToken cancellationToken)
    {
        var progress = new PhaseProgress();
        var start = Stopwatch.GetTimestamp();
        var started = 0;

        async Task<List<RequestSample>> CopyAsync(int copy)
        {
            var samples = new List<RequestSample>();
            while (Stopwatch.GetElapsedTime(start) < during
                && Interlocked.Increment(ref started) <= maxRequests)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var sample = await send(copy, start);
                samples.Add(sample);
                progress.Record(sample);
            }

            return samples;
        }

        var loops = Enumerable.Range(0, copies).Select(copy => Task.Run(() => CopyAsync(copy), cancellationToken)).ToArray();
        var perCopy = await ProgressDisplay.WatchAsync(label, during, progress, Task.WhenAll(loops));
        return ([.. perCopy.SelectMany(samples => samples)], Stopwatch.GetElapsedTime(start));
    }
}
