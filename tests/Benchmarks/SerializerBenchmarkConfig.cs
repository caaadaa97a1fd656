using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;
using WebSerialization.Benchmarks.Reporting;

namespace WebSerialization.Benchmarks;

/// <summary>The BenchmarkDotNet configuration of the full run and of the dry run.</summary>
public static class SerializerBenchmarkConfig
{
    /// <summary>
    /// Measured iterations per benchmark in the full run: a deserialization's time varies with where the collector
    /// happens to be, and the median of 15 orders rows whose ranges overlap more reliably than a handful of samples.
    /// </summary>
    public const int IterationCount = 15;

    public static IConfig Create(BenchmarkCommandLine options, PayloadCatalog catalog, IExporter exporter, string artifactsPath)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(catalog);
        ArgumentNullException.ThrowIfNull(exporter);
        var job = options.Dry
            ? Job.Dry.WithToolchain(InProcessEmitToolchain.Instance).WithId("Dry")
            : Job.Default
                .WithId("Seed")
                .WithLaunchCount(1)
                .WithWarmupCount(1)
                .WithIterationCount(IterationCount)

                // One operation is the whole organization, long enough to time alone: no repeats within an iteration, no pilot stage.
                .WithInvocationCount(1)
                .WithUnrollFactor(1)

                // Blocking GC: a background collector competes with the deserialization it collects after for the
                // machine's cores, which makes a row's time depend on the core count more than on its code.
                .WithGcConcurrent(false)
                .WithEnvironmentVariables(
                    new EnvironmentVariable(BenchmarkSettings.MemberCountVariable, options.MemberCount.ToString(CultureInfo.InvariantCulture)),
                    new EnvironmentVariable(BenchmarkSettings.RowsVariable, options.Rows ?? string.Empty));

        return ManualConfig.Create(DefaultConfig.Instance)
            .AddJob(job)
            .AddColumn(new PayloadSizeColumn(catalog.Sizes), StatisticColumn.Median, StatisticColumn.Min, StatisticColumn.Max)
            .AddExporter(exporter)
            .WithOrderer(LineupOrderer.Instance)
            .WithSummaryStyle(SummaryStyle.Default.WithTimeUnit(TimeUnit.Millisecond).WithMaxParameterColumnWidth(26))
            .WithArtifactsPath(artifactsPath);
    }
}
