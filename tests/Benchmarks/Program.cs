using BenchmarkDotNet.Running;
using WebSerialization.Benchmarks;

// The seed article's serializer table in one BenchmarkDotNet run: check every row, measure it, then write the table in
// the seed's shape with the targets judged. Usage: tests/Benchmarks/README.md.
var options = BenchmarkCommandLine.Parse(args);
if (options.Repeat is { } repeat)
{
    return repeat.Run(options.MemberCount, Console.Out);
}

options.SetEnvironment();
if (options.Comparison is { } comparison)
{
    return comparison.Run(options, Console.Out);
}

var catalog = PayloadCatalog.Verify(SerializerBenchmarks.Serializers.ToList(), options.MemberCount, Console.Out);
if (catalog.Problems.Count > 0)
{
    Console.Error.WriteLine("Not benchmarking rows that do not round-trip:\n  " + string.Join("\n  ", catalog.Problems));
    return 1;
}

// docs/results/benchmarks.md describes the full run only: not dry, the seed's member count, every row and benchmark.
var fullRun = !options.Dry && options.Rows is null && options.MemberCount == OrganizationGenerator.ArticleMemberCount;
var command = SeedTableExporter.FullRunCommand + (args.Length == 0 ? string.Empty : " -- " + string.Join(' ', args));
var exporter = new SeedTableExporter(command, catalog.Sizes, fullRun);
var config = options.CreateConfig(seedTable: true).AddColumn(new PayloadSizeColumn(catalog.Sizes)).AddExporter(exporter).WithOrderer(new LineupOrderer());
var summary = BenchmarkSwitcher.FromTypes([typeof(SerializerBenchmarks)]).Run([.. options.BenchmarkArguments], config).SingleOrDefault();
if (summary is null)
{
    // --list, --help and the like: nothing ran, nothing to report.
    return 0;
}

var rows = RowResult.From(summary, catalog.Sizes);
fullRun &= RowResult.IsComplete(rows);
Console.WriteLine();
Console.WriteLine("// * Targets *");
if (!fullRun)
{
    Console.WriteLine(SeedTableExporter.NotTheFullRun);
}

var failures = RowResult.Failures(summary);
Console.WriteLine(string.Join(Environment.NewLine, [.. TargetVerdicts.Judge(rows), .. failures.Select(failure => $"FAILED {failure}")]));
var resultsDocument = Path.Combine(RepositoryFolder.Root, "docs", "results", "benchmarks.md");
if (fullRun && failures.Count == 0)
{
    File.WriteAllText(resultsDocument, exporter.Render(summary));
    Console.WriteLine($"Wrote {resultsDocument}");
}
else
{
    Console.WriteLine("docs/results/benchmarks.md left as it was: only a complete full run of every row on 1,000,000 members replaces it.");
}

// The dry run takes the comparisons through their job too, so that they cannot rot either.
var comparisonsFailed = options.Dry && Comparison.All.Select(each => each.Run(options, Console.Out)).ToList().Any(exit => exit != 0);

// A missed target does not fail the run: times on a shared machine are noisy, and the verdicts are for people.
return failures.Count == 0 && !comparisonsFailed ? 0 : 1;
