using System.Diagnostics;

namespace WebSerialization.Benchmarks;

/// <summary>
/// <c>--repeat</c>: one row's operation <paramref name="Count"/> times in this process, for a profiler to see mostly
/// that (tests/Benchmarks/README.md). Page faults are reported too: a fresh large array is paid for in them.
/// </summary>
/// <param name="Operation">serialize, deserialize or summarize.</param>
public sealed record RepeatedOperation(string Row, string Operation, int Count)
{
    public int Run(int memberCount, TextWriter log)
    {
        var row = SerializerLineup.Create().FirstOrDefault(candidate => string.Equals(candidate.Name, Row, StringComparison.OrdinalIgnoreCase));
        if (row is null)
        {
            log.WriteLine($"No row named '{Row}'. The rows: {string.Join(", ", SerializerLineup.Create().Select(candidate => candidate.Name))}.");
            return 1;
        }

        var payload = new PreparedPayload(row.SerializeToArray(OrganizationGenerator.Create(memberCount)));

        // As in the benchmark: a deserialization does not run beside the organization it came from.
        var organization = Operation == "serialize" ? OrganizationGenerator.Create(memberCount) : null;
        var times = new List<double>(Count);
        var faults = new List<long>(Count);
        for (var i = 0; i < Count; i++)
        {
            // As BenchmarkDotNet does between iterations: the last operation's garbage is collected before the next
            // starts, not inside it (without this a deserialization also paid for the previous one's million members).
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            var faultsBefore = PageFaults();
            var stopwatch = Stopwatch.StartNew();
            object result = Operation switch
            {
                "serialize" => row.Serialize(organization!),
                "summarize" => row.Summarize(payload)[..16] + "...",
                _ => row.Deserialize(payload).Members?.Count ?? 0,
            };
            times.Add(stopwatch.Elapsed.TotalMilliseconds);
            var faultText = "";
            if (PageFaults() - faultsBefore is { } faulted)
            {
                faults.Add(faulted);
                faultText = string.Create(CultureInfo.InvariantCulture, $", {faulted:N0} page faults");
            }

            log.WriteLine($"{row.Name} {Operation} {i + 1}/{Count}: {times[^1]:F0} ms ({result}){faultText}");
        }

        times.Sort();
        faults.Sort();
        var faultSummary = faults.Count == 0 ? "" : string.Create(CultureInfo.InvariantCulture, $" Page faults: median {faults[faults.Count / 2]:N0} an operation.");
        log.WriteLine($"{row.Name} {Operation}: median {times[times.Count / 2]:F1} ms, range {times[0]:F1}-{times[^1]:F1} ms over {Count} operations.{faultSummary}");
        return 0;
    }

    // Minor + major faults of this process so far (fields 10 and 12 of /proc/self/stat, counted after the command
    // name, which may hold spaces); null where there is no procfs.
    private static long? PageFaults()
    {
        try
        {
            var stat = File.ReadAllText("/proc/self/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return long.Parse(fields[7], CultureInfo.InvariantCulture) + long.Parse(fields[9], CultureInfo.InvariantCulture);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
