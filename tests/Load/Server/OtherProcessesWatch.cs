using System.Diagnostics;

namespace WebSerialization.Load.Server;

/// <summary>
/// What the rest of the machine did during a run: the CPU time of every process outside the runner's own tree (the
/// runner and the servers and HAProxy it started) and outside the kernel's threads, read from <c>/proc</c> every second
/// so that a process that ends during the run counts too. A figure measured beside other work is not the machine's,
/// so the results header says how much there was and who did it.
/// </summary>
public sealed class OtherProcessesWatch : IAsyncDisposable
{
    // USER_HZ: /proc/PID/stat counts CPU time in 1/100 s on Linux whatever the kernel's tick.
    private const double TicksPerSecond = 100;
    private const double NamedFromPercent = 1;
    private const int MostNamed = 3;

    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly OtherProcessesTally _tally;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _sampling;
    private readonly long _started = Stopwatch.GetTimestamp();

    private OtherProcessesWatch(OtherProcessesTally tally)
    {
        _tally = tally;
        _sampling = SampleAsync();
    }

    /// <summary>Starts watching, or answers null where there is no /proc to read.</summary>
    public static OtherProcessesWatch? Start(int runnerProcessId)
    {
        if (!Directory.Exists("/proc/self"))
            return null;

        var tally = new OtherProcessesTally(runnerProcessId);
        tally.Add(ProcessSample.ReadAll(), atStart: true);
        return new OtherProcessesWatch(tally);
    }

    /// <summary>Stops watching and says what the other processes used, as a share of one CPU over the run.</summary>
    public async Task<string> StopAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _tally.Add(ProcessSample.ReadAll(), atStart: false);
        return _tally.Describe(Stopwatch.GetElapsedTime(_started));
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _stop.Dispose();
    }

    private async Task SampleAsync()
    {
        using var timer = new PeriodicTimer(Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
                _tally.Add(ProcessSample.ReadAll(), atStart: false);
        }
        catch (OperationCanceledException)
        {
            // Stopped.
        }
    }

    /// <summary>One process as <c>/proc/PID/stat</c> has it: who its parent is and the CPU time it has used so far.</summary>
    public readonly record struct ProcessSample(int ProcessId, int ParentId, string Name, long StartTicks, long CpuTicks)
    {
        private const int KernelThreadDaemon = 2;

        public bool IsKernelThread => ProcessId == KernelThreadDaemon || ParentId == KernelThreadDaemon;

        public static List<ProcessSample> ReadAll()
        {
            var samples = new List<ProcessSample>();
            foreach (var directory in Directory.EnumerateDirectories("/proc"))
            {
                var name = Path.GetFileName(directory);
                if (name.Length == 0 || !char.IsAsciiDigit(name[0]))
                    continue;

                try
                {
                    if (Parse(File.ReadAllText(Path.Combine(directory, "stat"))) is { } sample)
                        samples.Add(sample);
                }
                catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
                {
                    // The process ended between the listing and the read.
                }
            }

            return samples;
        }

        /// <summary>Reads one stat line; the name sits in parentheses and may itself hold spaces and parentheses.</summary>
        public static ProcessSample? Parse(string stat)
        {
            var open = stat.IndexOf('(', StringComparison.Ordinal);
            var close = stat.LastIndexOf(')');
            if (open < 0 || close < open)
                return null;

            // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime,
            // stime, cutime, cstime, priority, nice, num_threads, itrealvalue, starttime.
            var fields = stat[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return fields.Length < 20 ? null : new ProcessSample(
                int.Parse(stat.AsSpan(0, open).Trim(), CultureInfo.InvariantCulture),
                int.Parse(fields[1], CultureInfo.InvariantCulture),
                stat[(open + 1)..close],
                long.Parse(fields[19], CultureInfo.InvariantCulture),
                long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture));
        }
    }

    /// <summary>The CPU time each process outside the runner's tree used between the first sample and the last.</summary>
    public sealed class OtherProcessesTally(int runnerProcessId)
    {
        private readonly Dictionary<(int ProcessId, long StartTicks), Entry> _processes = [];
        private readonly Lock _lock = new();

        /// <summary>Takes one reading of every process; <paramref name="atStart"/> marks the reading CPU time is counted from.</summary>
        public void Add(IReadOnlyList<ProcessSample> samples, bool atStart)
        {
            var parents = samples.ToDictionary(sample => sample.ProcessId, sample => sample.ParentId);
            lock (_lock)
            {
                foreach (var sample in samples)
                {
                    var key = (sample.ProcessId, sample.StartTicks);
                    if (!_processes.TryGetValue(key, out var entry))
                    {
                        // A process first seen after the start began during the run: all its CPU time is the run's.
                        entry = new Entry(sample.Name, atStart ? sample.CpuTicks : 0);
                        _processes[key] = entry;
                    }

                    entry.LastTicks = sample.CpuTicks;
                    entry.Runners |= sample.IsKernelThread || InRunnerTree(sample.ProcessId, parents);
                }
            }
        }

        // Every process outside the runner's tree and the kernel's threads that used CPU time during the run, busiest first.
        private IReadOnlyList<(string Name, int ProcessId, double Percent)> Others(TimeSpan run)
        {
            lock (_lock)
            {
                return [.. _processes
                    .Where(process => !process.Value.Runners)
                    .Select(process => (process.Value.Name, process.Key.ProcessId, Percent: Percent(process.Value.LastTicks - process.Value.FirstTicks, run)))
                    .Where(process => process.Percent > 0)
                    .OrderByDescending(process => process.Percent)];
            }
        }

        /// <summary>"x % of one CPU over the run", naming the processes that used at least 1 % of one CPU.</summary>
        public string Describe(TimeSpan run)
        {
            var others = Others(run);
            var total = others.Sum(process => process.Percent);
            var named = others.Where(process => process.Percent >= NamedFromPercent).Take(MostNamed).ToList();
            var prefix = string.Create(CultureInfo.InvariantCulture, $"processes outside the runner, its servers and the kernel's threads used {total:0.0} % of one CPU over the run");
            return named.Count == 0
                ? string.Create(CultureInfo.InvariantCulture, $"{prefix} (none {NamedFromPercent:0} % or more)")
                : prefix + ": " + string.Join(", ", named.Select(process => string.Create(CultureInfo.InvariantCulture, $"{process.Name} (pid {process.ProcessId}) {process.Percent:0.0} %")));
        }

        private static double Percent(long ticks, TimeSpan run) =>
            run <= TimeSpan.Zero ? 0 : 100 * ticks / TicksPerSecond / run.TotalSeconds;

        private bool InRunnerTree(int processId, Dictionary<int, int> parents)
        {
            for (var current = processId; current > 1; current = parents.GetValueOrDefault(current))
            {
                if (current == runnerProcessId)
                    return true;
            }

            return false;
        }

        private sealed class Entry(string name, long firstTicks)
        {
            public string Name { get; } = name;

            public long FirstTicks { get; } = firstTicks;

            public long LastTicks { get; set; }

            // Sticky: a server the runner started stays the runner's after its parent link is gone.
            public bool Runners { get; set; }
        }
    }
}
