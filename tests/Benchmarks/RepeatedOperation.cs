using System.Diagnostics;
using WebSerialization.Benchmarks.Contenders;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks;

/// <summary>
/// One row's serialization or deserialization repeated in this process, with nothing else running, so that a profiler
/// sees mostly that operation:
/// <c>dotnet-trace collect --profile dotnet-sampled-thread-time -- dotnet tests/Benchmarks/bin/Release/net10.0/WebSerialization.Benchmarks.dll --repeat "Binary stream" deserialize 12</c>.
/// </summary>
public sealed record RepeatedOperation(string Row, bool Serialize, int Count)
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
        if (!Serialize)
        {
            // As in the benchmark: a deserialization does not run beside the organization it came from.
            organization = null;
        }

        var times = new List<double>(Count);
        for (var i = 0; i < Count; i++)
        {
            // As BenchmarkDotNet does between iterations: the last operation's garbage is collected before the next
            // starts, not inside it (without this a deserialization also paid for the previous one's million members).
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            var stopwatch = Stopwatch.StartNew();
            var result = Serialize ? row.Serialize(organization!) : row.Deserialize(payload).Members?.Count ?? 0;
            times.Add(stopwatch.Elapsed.TotalMilliseconds);
            log.WriteLine($"{row.Name} {(Serialize ? "serialize" : "deserialize")} {i + 1}/{Count}: {times[^1]:F0} ms ({result})");
        }

        times.Sort();
        log.WriteLine($"{row.Name} {(Serialize ? "serialize" : "deserialize")}: median {times[times.Count / 2]:F1} ms, range {times[0]:F1}-{times[^1]:F1} ms over {Count} operations.");
        return 0;
    }
}
