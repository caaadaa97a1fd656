using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;
using Perfolizer.Metrology;
using WebSerialization.Benchmarks.Reporting;

namespace WebSerialization.Benchmarks;

/// <summary>The BenchmarkDotNet configuration of the full run and of the dry run.</summary>
public static class SerializerBenchmarkConfig
{
    /// <summary>
    /// Measured iterations per benchmark in the full run. A deserialization's time swings by a third from one iteration
    /// to the next with where the collector happens to be, so the median needs more than the 5 samples that left rows
    /// 80 ms apart in the wrong order; 15 keep the whole run at about 5 minutes on 2 cores.
    /// </summary>
    public const int IterationCount = 15;

    public static IConfig Create(BenchmarkCommandLine options, PayloadCatalog catalog, string artifactsPath)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(catalog);
        var job = options.Dry
            ? Job.Dry.WithToolchain(InProcessEmitToolchain.Instance).WithId("Dry")
            : Job.Default
                .WithId("Seed")
                .WithLaunchCount(1)
                .WithWarmupCount(1)
                .WithIterationCount(IterationCount)

                // One operation takes 0.05 to 3 s: no point in repeating it within an iteration, or in a pilot stage.
                .WithInvocationCount(1)
                .WithUnrollFactor(1)

                // Background GC gives each deserialization (250 MB of surviving objects) a second, competing thread: on 2
                // cores it tripled the floor row (131 ms blocking, 435 ms background) and made its range 341-531 ms.
                .WithGcConcurrent(false)
                .WithEnvironmentVariables(
                    new EnvironmentVariable(BenchmarkSettings.MemberCountVariable, options.MemberCount.ToString(CultureInfo.InvariantCulture)),
                    new EnvironmentVariable(BenchmarkSettings.RowsVariable, options.Rows ?? string.Empty));

        return ManualConfig.Create(DefaultConfig.Instance)
            .AddJob(job)
            .AddColumn(new PayloadSizeColumn(catalog.Sizes))
            .WithOrderer(LineupOrderer.Instance)
            .WithSummaryStyle(SummaryStyle.Default.WithTimeUnit(TimeUnit.Millisecond).WithSizeUnit(SizeUnit.MB).WithMaxParameterColumnWidth(26))
            .WithArtifactsPath(artifactsPath);
    }
}
