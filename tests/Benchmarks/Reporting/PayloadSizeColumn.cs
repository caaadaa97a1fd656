using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>The payload size of each row in MB (2^20 bytes, as the seed counts), from the sizes measured before the run.</summary>
public sealed class PayloadSizeColumn(IReadOnlyDictionary<string, long> sizes) : IColumn
{
    public string Id => nameof(PayloadSizeColumn);
    public string ColumnName => "Payload MB";
    public bool AlwaysShow => true;
    public ColumnCategory Category => ColumnCategory.Custom;
    public int PriorityInCategory => 0;
    public bool IsNumeric => true;
    public UnitType UnitType => UnitType.Dimensionless;
    public string Legend => "Size of the row's payload for the run's organization, in MB of 2^20 bytes";

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
        RowResult.Row(benchmarkCase) is { } row && sizes.TryGetValue(row.Name, out var bytes)
            ? (bytes / (double)(1 << 20)).ToString("F2", CultureInfo.InvariantCulture)
            : "?";

    public override string ToString() => ColumnName;
}
