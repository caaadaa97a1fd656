using System.Runtime.InteropServices;

namespace WebSerialization.Load.Server;

/// <summary>
/// How fast each CPU ran during a run. A virtual machine's CPU can run the same instructions markedly slower for
/// seconds at a time while its host is busy, and neither <c>/proc</c> nor steal time shows it; a figure
/// measured in such a spell is the host's, not the code's. So a fixed loop is timed once a second on each CPU, by the
/// probing thread's own CPU time (waiting for the CPU does not count), and the results header says how often each CPU
/// ran it slowly. A probe takes about a millisecond a second on each CPU.
/// </summary>
public sealed class CpuSpeedWatch
{
    /// <summary>A probe more than this many times its CPU's fastest counts as slow.</summary>
    public const double SlowRatio = 1.25;

    private const int LoopIterations = 400_000;
    private const int ClockThreadCpuTime = 3;

    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly IReadOnlyList<int> _cpus;
    private readonly Dictionary<int, List<double>> _probes = [];
    private readonly ManualResetEventSlim _stop = new();
    private readonly Thread _thread;
    private ulong _sink;

    private CpuSpeedWatch(IReadOnlyList<int> cpus)
    {
        _cpus = cpus;
        foreach (var cpu in cpus)
            _probes[cpu] = [];

        _thread = new Thread(Probe) { IsBackground = true, Name = "CPU speed probe" };
        _thread.Start();
    }

    /// <summary>Starts probing every CPU this process may run on, or answers null where threads cannot be moved (not Linux).</summary>
    public static CpuSpeedWatch? Start()
    {
        if (!CpuAffinity.IsSupported || CpuAffinity.OfProcess(Environment.ProcessId) is not { } cpus)
            return null;

        var probed = cpus.Cpus.Where(cpu => cpu < 64).ToArray();
        return probed.Length == 0 ? null : new CpuSpeedWatch(probed);
    }

    /// <summary>Stops probing and describes what it saw, for the results header.</summary>
    public string Stop()
    {
        _stop.Set();
        _thread.Join();
        _stop.Dispose();
        return Describe(_probes.Select(pair => (pair.Key, (IReadOnlyList<double>)pair.Value)));
    }

    /// <summary>
    /// Per CPU: in how many probes it ran the loop within <see cref="SlowRatio"/> of its fastest, and how slow its
    /// slowest was; <paramref name="probes"/> are the loop's times, in any unit.
    /// </summary>
    public static string Describe(IEnumerable<(int Cpu, IReadOnlyList<double> Times)> probes)
    {
        var parts = new List<string>();
        foreach (var (cpu, times) in probes.OrderBy(probe => probe.Cpu))
        {
            if (times.Count == 0)
                continue;

            var fastest = times.Min();
            var slow = times.Count(time => time > SlowRatio * fastest);
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"CPU {cpu} within {SlowRatio:0.##}x of its fastest in {times.Count - slow} of {times.Count} probes (slowest {times.Max() / fastest:0.00}x)"));
        }

        return parts.Count == 0
            ? "not probed"
            : "a fixed loop timed once a second on each CPU by its thread's CPU time (a busy host slows a virtual CPU without /proc showing it): " + string.Join("; ", parts);
    }

    private void Probe()
    {
        while (!_stop.Wait(Interval))
        {
            if (!CpuAffinity.Changing.Wait(Interval))
                continue;

            try
            {
                foreach (var cpu in _cpus)
                {
                    if (!RunOn(cpu))
                        continue;

                    // The first loop after a move may pay for the move; the faster of two is the CPU's speed.
                    var time = Math.Min(TimeLoop(), TimeLoop());
                    if (time > 0)
                        _probes[cpu].Add(time);
                }
            }
            finally
            {
                // Back on the CPUs the process runs on now, which a pin may have changed since the watch started.
                if (GetAffinity(Environment.ProcessId, out var mask))
                    SetAffinity(mask);

                CpuAffinity.Changing.Release();
            }
        }
    }

    private static bool RunOn(int cpu) => SetAffinity(1UL << cpu);

    // The loop's time in nanoseconds of this thread's CPU time; 0 when the clock cannot be read.
    private double TimeLoop()
    {
        if (ClockGetTime(ClockThreadCpuTime, out var start) != 0)
            return 0;

        // A chain of dependent xorshift steps: the same instructions every time, which the JIT cannot drop or reorder.
        var value = _sink | 1;
        for (var i = 0; i < LoopIterations; i++)
        {
            value ^= value << 13;
            value ^= value >> 7;
            value ^= value << 17;
        }

        _sink = value;
        return ClockGetTime(ClockThreadCpuTime, out var end) != 0 ? 0 : end.Nanoseconds - start.Nanoseconds;
    }

    private static bool SetAffinity(ulong mask) => SchedSetAffinity(0, sizeof(ulong), ref mask) == 0;

    private static bool GetAffinity(int processId, out ulong mask)
    {
        mask = 0;
        return SchedGetAffinity(processId, sizeof(ulong), ref mask) == 0 && mask != 0;
    }

    [DllImport("libc", EntryPoint = "sched_setaffinity")]
    private static extern int SchedSetAffinity(int threadId, nuint size, ref ulong mask);

    [DllImport("libc", EntryPoint = "sched_getaffinity")]
    private static extern int SchedGetAffinity(int threadId, nuint size, ref ulong mask);

    [DllImport("libc", EntryPoint = "clock_gettime")]
    private static extern int ClockGetTime(int clock, out TimeSpec time);

    [StructLayout(LayoutKind.Sequential)]
    private readonly struct TimeSpec
    {
        private readonly long _seconds;
        private readonly long _nanoseconds;

        public double Nanoseconds => (_seconds * 1e9) + _nanoseconds;
    }
}
