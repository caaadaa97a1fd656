using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;
using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>BenchmarkDotNet's reports regrouped by row, as the seed's table has them: one column per row, one line per measure.</summary>
public sealed class BenchmarkResults
{
    private BenchmarkResults(IReadOnlyList<MeasuredRow> rows, int expected, int measured, IReadOnlyList<string> failures)
    {
        Rows = rows;
        ExpectedBenchmarks = expected;
        MeasuredBenchmarks = measured;
        Failures = failures;
    }

    /// <summary>Every row of the lineup, in table order.</summary>
    public IReadOnlyList<MeasuredRow> Rows { get; }

    /// <summary>Benchmarks in the class (a serialize and a deserialize per row).</summary>
    public int ExpectedBenchmarks { get; }

    /// <summary>Benchmarks that produced a result.</summary>
    public int MeasuredBenchmarks { get; }

    /// <summary>Benchmarks that ran and failed, and validation errors.</summary>
    public IReadOnlyList<string> Failures { get; }

    /// <summary>True when every benchmark of the class has a result: the table is whole.</summary>
    public bool IsComplete => MeasuredBenchmarks == ExpectedBenchmarks && Failures.Count == 0;

    public MeasuredRow? this[string name] => Rows.FirstOrDefault(row => row.Name == name);

    public static BenchmarkResults From(IEnumerable<Summary> summaries, IReadOnlyList<OrganizationSerializer> lineup, PayloadCatalog catalog)
    {
        ArgumentNullException.ThrowIfNull(summaries);
        ArgumentNullException.ThrowIfNull(lineup);
        ArgumentNullException.ThrowIfNull(catalog);
        var failures = new List<string>();
        var measures = new Dictionary<(string Row, string Method), (double Ms, long? Allocated)>();
        foreach (var summary in summaries)
        {
            failures.AddRange(summary.ValidationErrors.Where(error => error.IsCritical).Select(error => error.Message));
            foreach (var report in summary.Reports)
            {
                var row = PayloadSizeColumn.RowName(report.BenchmarkCase) ?? "?";
                var method = report.BenchmarkCase.Descriptor.WorkloadMethod.Name;
                if (!report.Success || report.ResultStatistics is null)
                {
                    failures.Add($"{method} {row} did not produce a result");
                    continue;
                }

                measures[(row, method)] = (report.ResultStatistics.Mean / 1e6, AllocatedPerOperation(report.GcStats));
            }
        }

        var rows = lineup.Select(serializer =>
        {
            measures.TryGetValue((serializer.Name, nameof(SerializerBenchmarks.Serialize)), out var serialize);
            var serialized = measures.ContainsKey((serializer.Name, nameof(SerializerBenchmarks.Serialize)));
            measures.TryGetValue((serializer.Name, nameof(SerializerBenchmarks.Deserialize)), out var deserialize);
            var deserialized = measures.ContainsKey((serializer.Name, nameof(SerializerBenchmarks.Deserialize)));
            return new MeasuredRow(
                serializer,
                catalog.Sizes.TryGetValue(serializer.Name, out var size) ? size : null,
                serialized ? serialize.Ms : null,
                deserialized ? deserialize.Ms : null,
                serialized ? serialize.Allocated : null,
                deserialized ? deserialize.Allocated : null);
        }).ToList();

        return new BenchmarkResults(rows, lineup.Count * 2, measures.Count, failures);
    }

    // BenchmarkDotNet 0.14 does not know .NET 10's runtime moniker, takes it for a runtime older than .NET Core 2.0,
    // and so reports any total of 8 KB or less (one allocation quantum) as 0 in its Allocated column. The raw total it
    // measured (GC.GetTotalAllocatedBytes(precise: true) around the operations) is exact: use that.
    private static long? AllocatedPerOperation(GcStats stats) =>
        stats.TotalOperations > 0 ? stats.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: false) / stats.TotalOperations : null;
}
