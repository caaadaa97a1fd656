using System.Globalization;

namespace WebSerialization.Tests.Processes;

// A set of logical CPUs by number, written as Linux writes one (taskset -c, Cpus_allowed_list in
// /proc/PID/status): 0, 0-3, 0,2-3. Always sorted, without repeats, never empty.
public sealed class CpuSet : IEquatable<CpuSet>
{
    // The CPU numbers Linux accepts in an affinity mask on any machine this runs on.
    private const int MaxCpu = 4095;

    private CpuSet(int[] cpus) => Cpus = cpus;

    public IReadOnlyList<int> Cpus { get; }

    public int Count => Cpus.Count;

    /// <summary>The set of <paramref name="cpus"/>; throws when there are none or one is negative.</summary>
    public static CpuSet Of(IEnumerable<int> cpus)
    {
        ArgumentNullException.ThrowIfNull(cpus);
        int[] sorted = [.. cpus.Distinct().Order()];
        return sorted.Length == 0 ? throw new ArgumentException("A CPU set needs at least one CPU.")
            : sorted[0] < 0 || sorted[^1] > MaxCpu ? throw new ArgumentException($"CPU numbers run from 0 to {MaxCpu}.")
            : new CpuSet(sorted);
    }

    /// <summary>Reads <c>0,2-3</c>; throws <see cref="ArgumentException"/> naming <paramref name="option"/> on anything else.</summary>
    public static CpuSet Parse(string value, string option = "CPU list")
    {
        ArgumentNullException.ThrowIfNull(value);
        var cpus = new List<int>();
        foreach (var item in value.Split(',', StringSplitOptions.TrimEntries))
        {
            var dash = item.IndexOf('-', StringComparison.Ordinal);
            var (first, last) = dash < 0 ? (Number(item), Number(item)) : (Number(item[..dash]), Number(item[(dash + 1)..]));
            if (first is null || last is null || last < first)
            {
                throw new ArgumentException($"{option}: '{value}' is not a list of CPU numbers and ranges from 0 to {MaxCpu}, such as 0 or 0,2-3.");
            }

            cpus.AddRange(Enumerable.Range(first.Value, last.Value - first.Value + 1));
        }

        return Of(cpus);
    }

    /// <summary>The CPUs in both sets, or null when they have none in common.</summary>
    public CpuSet? Intersect(CpuSet other)
    {
        ArgumentNullException.ThrowIfNull(other);
        int[] common = [.. Cpus.Intersect(other.Cpus)];
        return common.Length == 0 ? null : new CpuSet(common);
    }

    /// <summary>The CPUs of this set that are not in <paramref name="other"/>, or null when none are left.</summary>
    public CpuSet? Except(CpuSet other)
    {
        ArgumentNullException.ThrowIfNull(other);
        int[] rest = [.. Cpus.Except(other.Cpus)];
        return rest.Length == 0 ? null : new CpuSet(rest);
    }

    public bool IsSubsetOf(CpuSet other)
    {
        ArgumentNullException.ThrowIfNull(other);
        return Cpus.All(other.Cpus.Contains);
    }

    /// <summary>The list as <c>taskset -c</c> takes it: runs of consecutive CPUs as ranges, <c>0,2-3</c>.</summary>
    public override string ToString() => string.Join(',', Cpus
        .Select((cpu, index) => (cpu, run: cpu - index))
        .GroupBy(item => item.run, item => item.cpu)
        .Select(run => run.Count() == 1 ? run.First().ToString(CultureInfo.InvariantCulture) : string.Create(CultureInfo.InvariantCulture, $"{run.First()}-{run.Last()}")));

    /// <summary>"CPU 0" or "CPUs 0,2-3", for the reports.</summary>
    public string Describe() => (Count == 1 ? "CPU " : "CPUs ") + ToString();

    public bool Equals(CpuSet? other) => other is not null && Cpus.SequenceEqual(other.Cpus);

    public override bool Equals(object? obj) => Equals(obj as CpuSet);

    public override int GetHashCode() => ToString().GetHashCode(StringComparison.Ordinal);

    private static int? Number(string text) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number <= MaxCpu ? number : null;
}
