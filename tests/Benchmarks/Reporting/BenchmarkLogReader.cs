using System.Globalization;
using System.Text.RegularExpressions;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// Reads a run back from the log BenchmarkDotNet 0.14 writes to BenchmarkDotNet.Artifacts/ (every measured iteration
/// as <c>WorkloadResult</c>, the allocations as <c>// GC:</c>, and the summary it printed: machine, job, table), so
/// that the report can be rendered again, with corrected wording or statistics, without measuring again.
/// </summary>
public static partial class BenchmarkLogReader
{
    public static RunRecord Read(string path)
    {
        var lines = File.ReadAllLines(path);
        var measurements = new Dictionary<(string Row, string Method), Measurement>();
        var failures = new List<string>();
        int? members = null;
        string? rows = null;
        var dry = false;
        (string Row, string Method)? current = null;
        var iterations = new List<double>();
        long? allocated = null;

        void Close()
        {
            if (current is { } key)
            {
                if (iterations.Count > 0)
                {
                    measurements[key] = new Measurement([.. iterations], allocated);
                }
                else
                {
                    failures.Add($"{key.Method} {key.Row} did not produce a result");
                }
            }

            current = null;
            iterations = [];
            allocated = null;
        }

        foreach (var line in lines)
        {
            if (BenchmarkLine().Match(line) is { Success: true } benchmark)
            {
                Close();
                current = (benchmark.Groups["row"].Value, benchmark.Groups["method"].Value);
                dry |= benchmark.Groups["job"].Value == "Dry";
                if (MembersSetting().Match(line) is { Success: true } setting)
                {
                    members = int.Parse(setting.Groups[1].Value, CultureInfo.InvariantCulture);
                }

                rows = RowsSetting().Match(line) is { Success: true } selection ? selection.Groups[1].Value : rows;
            }
            else if (current is not null && WorkloadResultLine().Match(line) is { Success: true } result)
            {
                iterations.Add(double.Parse(result.Groups["ns"].Value, CultureInfo.InvariantCulture) / long.Parse(result.Groups["ops"].Value, CultureInfo.InvariantCulture) / 1e6);
            }
            else if (current is not null && GcLine().Match(line) is { Success: true } gc)
            {
                var operations = long.Parse(gc.Groups["ops"].Value, CultureInfo.InvariantCulture);
                allocated = operations > 0 ? long.Parse(gc.Groups["bytes"].Value, CultureInfo.InvariantCulture) / operations : null;
            }
        }

        Close();

        // The summary BenchmarkDotNet printed: "// * Summary *", the machine, the job, then its table up to "// * Warnings *".
        var summary = lines.SkipWhile(line => line != "// * Summary *").Skip(1)
            .TakeWhile(line => !line.StartsWith("// * ", StringComparison.Ordinal))
            .SkipWhile(line => line.Length == 0)
            .ToList();
        var environment = summary.TakeWhile(line => line.Length > 0).ToList();
        return new RunRecord(
            MeasuredAt(path),
            members ?? Models.OrganizationGenerator.SeedMemberCount,
            dry,
            string.IsNullOrEmpty(rows) ? null : rows,
            measurements,
            failures,
            environment,
            SummaryTable(summary.Skip(environment.Count).ToList()),
            RenderedFrom: Path.GetFileName(path));
    }

    // BenchmarkDotNet names its log <type>-<yyyyMMdd-HHmmss>.log, in the machine's local time (UTC here).
    private static DateTimeOffset MeasuredAt(string path) =>
        LogTimestamp().Match(Path.GetFileName(path)) is { Success: true } stamp
            && DateTime.TryParseExact(stamp.Groups[1].Value, "yyyyMMdd-HHmmss", CultureInfo.InvariantCulture, DateTimeStyles.AssumeLocal, out var local)
            ? new DateTimeOffset(local)
            : new DateTimeOffset(File.GetLastWriteTimeUtc(path));

    // The job lines and the table as BenchmarkDotNet's GitHub exporter lays them out: the job in a code block, the table
    // (already Markdown in the console's form) after it.
    private static string? SummaryTable(List<string> jobAndTable)
    {
        var table = jobAndTable.SkipWhile(line => !line.StartsWith('|')).TakeWhile(line => line.StartsWith('|')).ToList();
        if (table.Count == 0)
        {
            return null;
        }

        var job = jobAndTable.TakeWhile(line => !line.StartsWith('|')).Select(line => line.TrimEnd()).Where(line => line.Length > 0);
        return $"```\n{string.Join('\n', job)}\n```\n\n{string.Join('\n', table)}";
    }

    [GeneratedRegex(@"^// Benchmark: SerializerBenchmarks\.(?<method>\w+): (?<job>\w+)\(.*\[Serializer=(?<row>.*)\]$")]
    private static partial Regex BenchmarkLine();

    [GeneratedRegex(@"WEBSERIALIZATION_BENCHMARK_MEMBERS=(\d+)")]
    private static partial Regex MembersSetting();

    [GeneratedRegex(@"WEBSERIALIZATION_BENCHMARK_ROWS=([^,)]*)")]
    private static partial Regex RowsSetting();

    [GeneratedRegex(@"^WorkloadResult\s+\d+: (?<ops>\d+) op, (?<ns>[\d.]+) ns")]
    private static partial Regex WorkloadResultLine();

    [GeneratedRegex(@"^// GC:\s+\d+ \d+ \d+ (?<bytes>\d+) (?<ops>\d+)")]
    private static partial Regex GcLine();

    [GeneratedRegex(@"-(\d{8}-\d{6})\.log$")]
    private static partial Regex LogTimestamp();
}
