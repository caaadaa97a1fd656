using System.Diagnostics;
using Spectre.Console;

namespace WebSerialization.Load.Reports;

/// <summary>Shows a phase while it runs: elapsed of planned time, requests ok and failed, MB/s and p50/p99 so far. On a
/// terminal a Spectre.Console progress bar redrawn four times a second; otherwise (CI logs, a pipe) one plain line a
/// second, so that logs stay readable.</summary>
public static class ProgressDisplay
{
    /// <summary>True when the output is an interactive terminal that Spectre.Console can redraw.</summary>
    public static bool IsLive { get; } = !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive;

    /// <summary>Shows <paramref name="progress"/> until <paramref name="phase"/> ends, then returns its result.</summary>
    public static async Task<T> WatchAsync<T>(string label, TimeSpan planned, PhaseProgress progress, Task<T> phase)
    {
        var started = Stopwatch.GetTimestamp();
        if (!IsLive)
        {
            using var ticker = new PeriodicTimer(TimeSpan.FromSeconds(1));
            while (!phase.IsCompleted)
            {
                // Not cancellable: on Ctrl+C or the overall timeout the phase ends through its own token.
                await Task.WhenAny(phase, ticker.WaitForNextTickAsync(CancellationToken.None).AsTask());
                if (!phase.IsCompleted)
                    Console.WriteLine("  " + Line(label, progress, Stopwatch.GetElapsedTime(started), planned, done: false));
            }

            var result = await phase;
            Console.WriteLine("  " + Line(label, progress, Stopwatch.GetElapsedTime(started), planned, done: true));
            return result;
        }

        await AnsiConsole.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(new ProgressBarColumn(), new PercentageColumn(), new TaskDescriptionColumn { Alignment = Justify.Left })
            .StartAsync(async context =>
            {
                var task = context.AddTask(Markup.Escape(label), maxValue: Math.Max(planned.TotalSeconds, 0.001));
                while (!phase.IsCompleted)
                {
                    await Task.WhenAny(phase, Task.Delay(TimeSpan.FromMilliseconds(250)));
                    var elapsed = Stopwatch.GetElapsedTime(started);
                    task.Value = Math.Min(elapsed.TotalSeconds, task.MaxValue);
                    task.Description = Markup.Escape(Line(label, progress, elapsed, planned, phase.IsCompleted));
                }

                task.Value = task.MaxValue;
            });
        return await phase;
    }

    /// <summary>One line of progress: elapsed of planned, ok, failed, MB/s, p50 and p99 so far.</summary>
    public static string Line(string label, PhaseProgress progress, TimeSpan elapsed, TimeSpan planned, bool done)
    {
        var seconds = Math.Max(elapsed.TotalSeconds, 0.001);
        return string.Create(
            CultureInfo.InvariantCulture,
            $"{label,-44} {elapsed.TotalSeconds,5:0.0} s of {planned.TotalSeconds:0.#} s{(done ? ", done" : string.Empty)}: {progress.Succeeded,6} ok, {progress.Failed,4} failed, "
            + $"{progress.Bytes / Units.BytesPerMegabyte / seconds,7:0.0} MB/s, p50 {ConsoleReport.Format(progress.Latency.Percentile(50))} ms, p99 {ConsoleReport.Format(progress.Latency.Percentile(99))} ms");
    }
}
