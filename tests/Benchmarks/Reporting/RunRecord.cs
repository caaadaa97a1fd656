using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// What a run measured, independent of where it is read from: BenchmarkDotNet's summaries just after the run, or the
/// log it wrote (<see cref="BenchmarkLogReader"/>), so that the report can be rendered again without measuring again.
/// </summary>
public sealed record RunRecord(
    DateTimeOffset Measured,
    int MemberCount,
    bool Dry,
    string? Rows,
    IReadOnlyDictionary<(string Row, string Method), Measurement> Measurements,
    IReadOnlyList<string> Failures,
    IReadOnlyList<string> EnvironmentLines,
    string? BenchmarkDotNetTable,
    string? RenderedFrom)
{
    /// <summary>The full run's command, which every report shows so that a reader can measure again.</summary>
    public const string FullRunCommand = "dotnet run -c Release --project tests/Benchmarks";

    /// <summary>True for the run docs/results/benchmarks.md describes: not dry, every row, the seed's 1,000,000 members.</summary>
    public bool IsFullRun => !Dry && string.IsNullOrEmpty(Rows) && MemberCount == Models.OrganizationGenerator.SeedMemberCount;

    public static RunRecord FromSummaries(IReadOnlyList<Summary> summaries, BenchmarkCommandLine options)
    {
        ArgumentNullException.ThrowIfNull(summaries);
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        var measurements = new Dictionary<(string Row, string Method), Measurement>();
        foreach (var summary in summaries)
        {
            failures.AddRange(summary.ValidationErrors.Where(error => error.IsCritical).Select(error => error.Message));
            foreach (var report in summary.Reports)
            {
                var row = PayloadSizeColumn.RowName(report.BenchmarkCase) ?? "?";
                var method = report.BenchmarkCase.Descriptor.WorkloadMethod.Name;
                var iterations = report.AllMeasurements
                    .Where(measurement => measurement.Is(IterationMode.Workload, IterationStage.Result))
                    .Select(measurement => measurement.Nanoseconds / measurement.Operations / 1e6)
                    .ToList();
                if (!report.Success || iterations.Count == 0)
                {
                    failures.Add($"{method} {row} did not produce a result");
                    continue;
                }

                measurements[(row, method)] = new Measurement(iterations, AllocatedPerOperation(report.GcStats));
            }
        }

        return new RunRecord(
            DateTimeOffset.UtcNow,
            options.MemberCount,
            options.Dry,
            options.Rows,
            measurements,
            failures,
            summaries.FirstOrDefault()?.HostEnvironmentInfo.ToFormattedString().ToList() ?? [],
            GitHubTables(summaries),
            RenderedFrom: null);
    }

    // BenchmarkDotNet's Allocated column is rounded to the table's unit (MB), which shows a streaming writer's few
    // hundred bytes as 0. The raw total it measured (GC.GetTotalAllocatedBytes(precise: true) around the operations)
    // is exact: use that.
    private static long? AllocatedPerOperation(GcStats stats) =>
        stats.TotalOperations > 0 ? stats.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: false) / stats.TotalOperations : null;

    private static string GitHubTables(IEnumerable<Summary> summaries)
    {
        var logger = new AccumulationLogger();
        foreach (var summary in summaries)
        {
            MarkdownExporter.GitHub.ExportToLog(summary, logger);
        }

        return logger.GetLog().Trim();
    }
}
