using System.Diagnostics;
using System.Globalization;
using WebSerialization.Benchmarks.Contenders;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks;

/// <summary>
/// One row's serialization or deserialization repeated in this process, with nothing else running, so that a profiler
/// sees mostly that operation. On Linux each operation also reports the page faults it took (a fresh large array is
/// paid for in faults as the kernel supplies its pages):
/// <c>dotnet-trace collect --profile dotnet-sampled-thread-time -- dotnet tests/Benchmarks/bin/Release/net10.0/WebSerialization.Benchmarks.dll --repeat "Binary stream" deserialize 12</c>.
/// </summary>
/// <param name="Row">The row's name.</param>
/// <param name="Operation">serialize, deserialize or summarize.</param>
/// <param name="Count">How many times.</param>
public sealed record RepeatedOperation(string Row, string Operation, int Count)
{
    public int Run(int memberCount, TextWriter log)
    {
        ArgumentNullException.ThrowIfNull(log);
        var row = SerializerLineup.Create().FirstOrDefault(candidate => string.Equals(candidate.Name, Row, StringComparison.OrdinalIgnoreCase));
        if (row is null)
        {
            log.WriteLine($"No row named '{Row}'. The rows: {string.Join(", ", SerializerLineup.Create().Select(candidate => candidate.Name))}.");
            return 1;
        }

        var organization = OrganizationGenerator.Create(memberCount);
        var payload = new PreparedPayload(row.SerializeToArray(organization));
        var serialize = Operation == "serialize";
        if (!serialize)
        {
            // As in the benchmark: a deserialization does not run beside the organization it came from.
            organization = null;
        }

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
            var faulted = PageFaults() - faultsBefore;
            var faultText = "";
            if (faulted is { } count)
            {
                faults.Add(count);
                faultText = string.Create(CultureInfo.InvariantCulture, $", {count:N0} page faults");
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
        string stat;
        try
        {
            stat = File.ReadAllText("/proc/self/stat");
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }

        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return long.Parse(fields[7], CultureInfo.InvariantCulture) + long.Parse(fields[9], CultureInfo.InvariantCulture);
    }
}
