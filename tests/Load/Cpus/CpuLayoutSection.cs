namespace WebSerialization.Load.Cpus;

/// <summary>What <see cref="CpuLayoutComparison"/> adds to a run's reports: its legend and its tables, laid out by each report.</summary>
public sealed record CpuLayoutSection(string Legend, IReadOnlyList<ReportTable> Tables);
