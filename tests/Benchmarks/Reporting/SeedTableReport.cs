using System.Globalization;
using System.Text;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The Markdown section of docs/performance.md: the seed's table in its own shape (rows are measures, columns are
/// serializers), the targets, the seed's published numbers beside it, and BenchmarkDotNet's own table.
/// </summary>
public static class SeedTableReport
{
    public static string Render(BenchmarkResults results, IReadOnlyList<TargetResult> targets, RunRecord run)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(targets);
        ArgumentNullException.ThrowIfNull(run);
        var md = new StringBuilder();
        md.AppendLine("## Serializer benchmarks: the seed's table, re-measured in one run");
        md.AppendLine();
        md.AppendLine(Invariant($"Measured by `tests/Benchmarks` on {run.Measured.UtcDateTime:yyyy-MM-dd HH:mm} UTC; re-run it rather than edit this section:"));
        md.AppendLine();
        md.AppendLine("```sh");
        md.AppendLine(RunRecord.FullRunCommand);
        md.AppendLine("```");
        md.AppendLine();
        if (run.RenderedFrom is { } log)
        {
            md.AppendLine($"Rendered from that run's BenchmarkDotNet log, without measuring again: `{RunRecord.FullRunCommand} -- --report-from BenchmarkDotNet.Artifacts/{log}`.");
            md.AppendLine();
        }

        md.AppendLine(Invariant($"- **Data**: `OrganizationGenerator.Create({run.MemberCount:N0})`, the seed article's members from a fixed PRNG seed; every row serializes the same organization."));
        md.AppendLine(run.Dry
            ? "- **Job**: BenchmarkDotNet's Dry job in process: one cold invocation each. A smoke test, not a measurement."
            : Invariant($"- **Job**: one process per benchmark, 1 warm-up and {SerializerBenchmarkConfig.IterationCount} measured iterations of one operation (the whole organization) each, blocking (non-concurrent) GC. Times are the **median** of the iterations, with their range below it; allocations are BenchmarkDotNet's MemoryDiagnoser, per operation, exact."));
        md.AppendLine("- **Machine**: a virtual machine with 2 cores (BenchmarkDotNet's lines below), whose timings vary from one iteration to the next, for some rows more than others: the range rows show how far. Compare rows by their ratios; where two rows' ranges overlap, their order can change from one run to the next.");
        md.AppendLine("- **MB** is 2^20 bytes, as the seed counts.");
        md.AppendLine();
        md.AppendLine("```");
        foreach (var line in run.EnvironmentLines)
        {
            md.AppendLine(line);
        }

        md.AppendLine("```");
        md.AppendLine();
        AppendSeedShapedTable(md, results);
        md.AppendLine();
        md.AppendLine("### Targets");
        md.AppendLine();
        if (!run.IsFullRun)
        {
            md.AppendLine(NotAMeasurement(run.MemberCount, run.Dry, run.Rows));
            md.AppendLine();
        }

        foreach (var target in targets)
        {
            md.AppendLine($"- **{target.Verdict}** {target.Text}");
            if (target.Obstacle is not null)
            {
                md.AppendLine($"  - *What stands in the way:* {target.Obstacle}");
            }
        }

        md.AppendLine();
        AppendSeedNumbers(md);
        md.AppendLine();
        md.AppendLine("### What each column runs");
        md.AppendLine();
        foreach (var row in results.Rows)
        {
            md.AppendLine($"- **{row.Name}**: {row.Serializer.Description}");
        }

        md.AppendLine();
        md.AppendLine("### BenchmarkDotNet's table");
        md.AppendLine();
        md.AppendLine(run.BenchmarkDotNetTable ?? "Not kept for this run: see its log in BenchmarkDotNet.Artifacts/.");
        md.AppendLine();
        md.AppendLine("BenchmarkDotNet's Allocated column is rounded to MB, so a streaming writer's few hundred bytes show as 0;");
        md.AppendLine("the seed's table above has the exact figures it measured. Its Mean and StdDev include the iterations other work delayed.");
        return md.ToString();
    }

    /// <summary>The caveat of a run that is not the full one: its verdicts only show that the evaluation works.</summary>
    public static string NotAMeasurement(int memberCount, bool dry, string? rows) =>
        Invariant($"(Evaluated on {memberCount:N0} members{(dry ? " with one cold invocation each" : string.Empty)}{(rows is null ? string.Empty : $", rows '{rows}' only")}: this checks that the evaluation works; the verdicts that count come from the full run of every row on 1,000,000 members.)");

    private static void AppendSeedShapedTable(StringBuilder md, BenchmarkResults results)
    {
        md.AppendLine("### The seed's table");
        md.AppendLine();
        md.AppendLine("| | " + string.Join(" | ", results.Rows.Select(row => row.Name)) + " |");
        md.AppendLine("|---|" + string.Concat(results.Rows.Select(_ => "---:|")));
        AppendLine(md, "size MB", results.Rows.Select(row => Mb(row.SizeBytes)));
        AppendLine(md, "serialize ms", results.Rows.Select(row => Ms(row.SerializeMs)));
        AppendLine(md, "(range)", results.Rows.Select(row => Range(row.Serialization)));
        AppendLine(md, "deserialize ms", results.Rows.Select(row => Ms(row.DeserializeMs)));
        AppendLine(md, "(range) ", results.Rows.Select(row => Range(row.Deserialization)));
        AppendLine(md, "allocated MB, serialize", results.Rows.Select(row => Mb(row.SerializeAllocatedBytes)));
        AppendLine(md, "allocated MB, deserialize", results.Rows.Select(row => Mb(row.DeserializeAllocatedBytes)));
        AppendLine(md, "allocated MB, both (the seed's measure)", results.Rows.Select(row => Mb(row.SerializeAllocatedBytes + row.DeserializeAllocatedBytes)));
    }

    private static void AppendSeedNumbers(StringBuilder md)
    {
        md.AppendLine("### The seed article's own numbers, for reference");
        md.AppendLine();
        md.AppendLine("Published in 2023 from one Stopwatch run per helper on the author's machine (.NET 8); the allocations come from its");
        md.AppendLine("BenchmarkDotNet run of serialize and deserialize together. Not comparable in absolute terms with the table above.");
        md.AppendLine();
        var table = SeedArticle.Table;
        md.AppendLine("| | " + string.Join(" | ", table.Select(column => column.Column)) + " |");
        md.AppendLine("|---|" + string.Concat(table.Select(_ => "---:|")));
        AppendLine(md, "size MB", table.Select(column => Invariant($"{column.SizeMb:F2}")));
        AppendLine(md, "serialize ms", table.Select(column => Invariant($"{column.SerializeMs}")));
        AppendLine(md, "deserialize ms", table.Select(column => Invariant($"{column.DeserializeMs}")));
        AppendLine(md, "allocated MB, both", table.Select(column => column.AllocatedMb is { } mb ? Invariant($"{mb:F2}") : "not measured"));
    }

    private static void AppendLine(StringBuilder md, string measure, IEnumerable<string> values) =>
        md.AppendLine($"| {measure} | " + string.Join(" | ", values) + " |");

    // Whole milliseconds as the seed prints them; a decimal for the short operations of small runs.
    private static string Ms(double? ms) => ms is { } value ? value.ToString(value >= 100 ? "F0" : "F1", CultureInfo.InvariantCulture) : "–";

    private static string Range(Measurement? measurement) =>
        measurement is null ? "–" : $"{Ms(measurement.MinMs)}–{Ms(measurement.MaxMs)}";

    // Allocations of a streaming writer are far below 1 MB: four decimals keep them from reading as zero.
    private static string Mb(long? bytes) =>
        bytes is { } value ? (value / (double)(1 << 20)).ToString(value >= 1 << 20 ? "F2" : "F4", CultureInfo.InvariantCulture) : "–";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
