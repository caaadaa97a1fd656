using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Cpus;

/// <summary>
/// The physical cores behind a set of logical CPUs, from Linux's <c>/sys/devices/system/cpu/cpuN/topology</c>, so that
/// a default split never puts two hardware threads of one core on different sides (they share that core's caches
/// and execution units, so one side's load would slow the other).
/// </summary>
public static class CpuTopology
{
    /// <summary>
    /// <paramref name="available"/> grouped by physical core (the hardware threads of one core together), cores in the
    /// order of their first CPU. A CPU whose topology cannot be read is a core of its own.
    /// </summary>
    public static IReadOnlyList<CpuSet> Cores(CpuSet available, Func<int, CpuSet?>? siblingsOf = null)
    {
        siblingsOf ??= ReadSiblings;
        var cores = new List<CpuSet>();
        foreach (var cpu in available.Cpus)
        {
            if (cores.Any(core => core.Cpus.Contains(cpu)))
            {
                continue;
            }

            var siblings = siblingsOf(cpu)?.Intersect(available);
            cores.Add(siblings is not null && siblings.Cpus.Contains(cpu) ? siblings : CpuSet.Of([cpu]));
        }

        return cores;
    }

    private static CpuSet? ReadSiblings(int cpu)
    {
        try
        {
            var path = $"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list";
            return File.Exists(path) ? CpuSet.Parse(File.ReadAllText(path).Trim()) : null;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return null;
        }
    }
}
