using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// One row of the lineup as the seed's table has it, from BenchmarkDotNet's reports: null where a benchmark did not run
/// or failed.
/// </summary>
public sealed record RowResult(
    OrganizationSerializer Serializer,
    long? SizeBytes,
    double? SerializeMs,
    double? DeserializeMs,
    long? SerializeAllocatedBytes,
    long? DeserializeAllocatedBytes,
    double? SummarizeMs,
    long? SummarizeAllocatedBytes)
{
    public string Name => Serializer.Name;

    /// <summary>The row a benchmark case measures: its <c>Serializer</c> parameter.</summary>
    public static OrganizationSerializer? Row(BenchmarkCase benchmarkCase) =>
        benchmarkCase.Parameters[nameof(SerializerBenchmarks.Serializer)] as OrganizationSerializer;

    /// <summary>The rows of <paramref name="summary"/> in lineup order, with the sizes <see cref="PayloadCatalog"/> measured.</summary>
    public static IReadOnlyList<RowResult> From(Summary summary, IReadOnlyDictionary<string, long> sizes) =>
    [
        .. summary.Reports.GroupBy(report => Row(report.BenchmarkCase)!).OrderBy(row => row.Key.Position).Select(row =>
        {
            var (serialize, deserialize, summarize) = (
                Find(row, nameof(SerializerBenchmarks.Serialize)), Find(row, nameof(SerializerBenchmarks.Deserialize)), Find(row, nameof(SerializerBenchmarks.Summarize)));
            return new RowResult(
                row.Key,
                sizes.TryGetValue(row.Key.Name, out var size) ? size : null,
                MedianMs(serialize),
                MedianMs(deserialize),
                AllocatedPerOperation(serialize),
                AllocatedPerOperation(deserialize),
                MedianMs(summarize),
                AllocatedPerOperation(summarize));
        }),
    ];

    /// <summary>True when every selected row of the lineup has both its times: the table is whole.</summary>
    public static bool IsComplete(IReadOnlyList<RowResult> rows) =>
        rows.Count == SerializerBenchmarks.Serializers.Count() && rows.All(row => row.SerializeMs is not null && row.DeserializeMs is not null);

    /// <summary>What failed: benchmarks without a result, and critical validation errors.</summary>
    public static IReadOnlyList<string> Failures(Summary summary) =>
    [
        .. summary.ValidationErrors.Where(error => error.IsCritical).Select(error => error.Message),
        .. summary.Reports.Where(report => MedianMs(report) is null).Select(report => $"{report.BenchmarkCase.DisplayInfo} did not produce a result"),
    ];

    private static BenchmarkReport? Find(IEnumerable<BenchmarkReport> reports, string method) =>
        reports.FirstOrDefault(report => report.BenchmarkCase.Descriptor.WorkloadMethod.Name == method);

    // The median: other work on a shared machine delays some iterations, which moves the mean but hardly the median.
    private static double? MedianMs(BenchmarkReport? report) =>
        report is { Success: true, ResultStatistics: { } statistics } ? statistics.Median / 1e6 : null;

    // The exact total BenchmarkDotNet measured, per operation: its own per-operation figure drops totals under one
    // allocation quantum to 0, which would hide a streaming writer's few hundred bytes in a one-operation dry run.
    private static long? AllocatedPerOperation(BenchmarkReport? report) =>
        report is { GcStats: { TotalOperations: > 0 } stats }
            ? stats.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: false) / stats.TotalOperations
            : null;
}
