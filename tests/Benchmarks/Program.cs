using System.Globalization;
using BenchmarkDotNet.Running;
using WebSerialization.Benchmarks;
using WebSerialization.Benchmarks.Reporting;

// The seed article's serializer table in one BenchmarkDotNet run: check every row, measure it, then write the table in
// the seed's shape with the targets evaluated. Usage: tests/Benchmarks/README.md.
var options = BenchmarkCommandLine.Parse(args);
if (options.Repeat is { } repeat)
{
    return repeat.Run(options.MemberCount, Console.Out);
}

Environment.SetEnvironmentVariable(BenchmarkSettings.MemberCountVariable, options.MemberCount.ToString(CultureInfo.InvariantCulture));
Environment.SetEnvironmentVariable(BenchmarkSettings.RowsVariable, options.Rows);
var lineup = SerializerBenchmarks.Serializers.ToList();

if (options.ReportFrom is { } logPath)
{
    // Render again from a run's log: the sizes are recomputed (they are exact and deterministic), nothing is timed.
    var measured = BenchmarkLogReader.Read(logPath);
    Environment.SetEnvironmentVariable(BenchmarkSettings.MemberCountVariable, measured.MemberCount.ToString(CultureInfo.InvariantCulture));
    Environment.SetEnvironmentVariable(BenchmarkSettings.RowsVariable, measured.Rows);
    var rows = SerializerBenchmarks.Serializers.ToList();
    return SeedTablePublisher.Publish(measured, rows, PayloadCatalog.Verify(rows, measured.MemberCount, Console.Out), Console.Out);
}

var catalog = PayloadCatalog.Verify(lineup, options.MemberCount, Console.Out);
if (catalog.Problems.Count > 0)
{
    Console.Error.WriteLine("Not benchmarking rows that do not round-trip:\n  " + string.Join("\n  ", catalog.Problems));
    return 1;
}

var config = SerializerBenchmarkConfig.Create(options, catalog, RepositoryPaths.Artifacts);
var summaries = BenchmarkSwitcher.FromTypes([typeof(SerializerBenchmarks)]).Run([.. options.BenchmarkArguments], config).ToList();
if (summaries.Count == 0)
{
    // --list, --help and the like: nothing ran, nothing to report.
    return 0;
}

return SeedTablePublisher.Publish(RunRecord.FromSummaries(summaries, options), lineup, catalog, Console.Out);
