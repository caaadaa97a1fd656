using System.Runtime.InteropServices;

namespace WebSerialization.Load.Server;

/// <summary>
/// How fast each CPU ran during a run. A virtual machine's CPU can run the same instructions markedly slower for
/// seconds at a time while its host is busy, and neither <c>/proc</c> nor steal time shows it; a figure measured in
/// such a spell is the host's, not the code's, and one machine of the same model may be slower than another. So once a
/// second, on each CPU, a fixed compute loop and a chain of dependent loads from a 64 MB table (what serializing a
/// large object graph waits on) are timed by the probing thread's own CPU time (waiting for the CPU does not count),
/// and the results header gives each one's best time, how often the loop ran slowly and the loads' median. The probes take well under 1 % of
/// each CPU.
/// </summary>
public sealed class CpuSpeedWatch
{
    /// <summary>A probe more than this many times its CPU's fastest counts as slow.</summary>
    public const double SlowRatio = 1.25;

    private const int LoopIterations = 200_000;
    private const int TableEntries = 16 << 20;
    private const int Loads = 2_000;
    private const int ClockThreadCpuTime = 3;

    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly IReadOnlyList<int> _cpus;
    private readonly Dictionary<int, List<double>> _compute = [];
    private readonly Dictionary<int, List<double>> _memory = [];
    private readonly int[] _table = CycleTable();
    private int _next;
    private readonly ManualResetEventSlim _stop = new();
    private readonly Thread _thread;
    private ulong _sink;

    private CpuSpeedWatch(IReadOnlyList<int> cpus)
    {
        _cpus = cpus;
        foreach (var cpu in cpus)
        {
            _compute[cpu] = [];
            _memory[cpu] = [];
        }

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
        return Describe(_cpus.Select(cpu => (cpu, (IReadOnlyList<double>)_compute[cpu], (IReadOnlyList<double>)_memory[cpu])));
    }

    /// <summary>
    /// Per CPU: the compute loop's best time (µs) and in how many probes it ran beyond <see cref="SlowRatio"/> of it;
    /// the loads' best and median (ns a load). Loads share the memory with the run's own traffic, so their median says
    /// how much the run slowed memory, and only their best compares machines; <paramref name="probes"/> hold nanoseconds.
    /// </summary>
    public static string Describe(IEnumerable<(int Cpu, IReadOnlyList<double> Compute, IReadOnlyList<double> Memory)> probes)
    {
        var parts = new List<string>();
        foreach (var (cpu, compute, memory) in probes.OrderBy(probe => probe.Cpu))
        {
            if (compute.Count == 0 || memory.Count == 0)
                continue;

            var best = compute.Min();
            var slow = compute.Count(time => time > SlowRatio * best);
            var loads = memory.Order().ToArray();
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"CPU {cpu}: loop best {best / 1e3:0} µs, {slow} of {compute.Count} probes slow (slowest {compute.Max() / best:0.00}x), load best {loads[0] / Loads:0} ns, median {loads[loads.Length / 2] / Loads:0} ns"));
        }

        return parts.Count == 0
            ? "not probed"
            : string.Create(CultureInfo.InvariantCulture, $"once a second on each CPU, a fixed loop and a chain of dependent loads from a 64 MB table, timed by the thread's CPU time (a busy host slows a virtual CPU without /proc showing it): {string.Join("; ", parts)}; a loop is slow beyond {SlowRatio:0.##}x its best, and the loads' median includes the run's own memory traffic");
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

                    // The first run after a move may pay for the move; the faster of two is the CPU's speed.
                    var compute = Math.Min(TimeLoop(), TimeLoop());
                    var memory = Math.Min(TimeLoads(), TimeLoads());
                    if (compute > 0 && memory > 0)
                    {
                        _compute[cpu].Add(compute);
                        _memory[cpu].Add(memory);
                    }
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

    // Loads follow one cycle through every entry (Sattolo's shuffle), so each waits for the one before and none is cached.
    private static int[] CycleTable()
    {
        var table = new int[TableEntries];
        for (var i = 0; i < table.Length; i++)
            table[i] = i;

        var random = new Random(1);
        for (var i = table.Length - 1; i > 0; i--)
        {
            var j = random.Next(i);
            (table[i], table[j]) = (table[j], table[i]);
        }

        return table;
    }

    // The loads' time in nanoseconds of this thread's CPU time; 0 when the clock cannot be read.
    private double TimeLoads()
    {
        if (ClockGetTime(ClockThreadCpuTime, out var start) != 0)
            return 0;

        var table = _table;
        var next = _next;
        for (var i = 0; i < Loads; i++)
            next = table[next];

        _next = next;
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
