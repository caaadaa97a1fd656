using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;
using WebSerialization.Benchmarks.Readers;
using WebSerialization.Benchmarks.Transcoding;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// A benchmark class beside the seed table that sets our code against the library code it stands in for, chosen with
/// its <paramref name="Flag"/>: run with the run's job (the dry one too), and after a full run on the seed's members
/// written to its page under docs/results, where the summary comment of our code links it.
/// </summary>
/// <param name="Source">Where the page says each row is described.</param>
/// <param name="Data">What the rows run on.</param>
/// <param name="Rows">One line a row or parameter, under the header.</param>
public sealed record Comparison(string Flag, Type Benchmarks, string FileName, string Title, string Source, string Data, string[] Rows)
{
    public static IReadOnlyList<Comparison> All { get; } = [MessagePackReaderBenchmarks.Comparison, Utf8TranscodingBenchmarks.Comparison];

    public int Run(BenchmarkCommandLine options, TextWriter log)
    {
        var summary = BenchmarkRunner.Run(Benchmarks, options.CreateConfig(seedTable: false));
        if (summary.HasCriticalValidationErrors || summary.Reports.Any(report => !report.Success))
        {
            return 1;
        }

        if (!options.Dry && options.MemberCount == OrganizationGenerator.ArticleMemberCount)
        {
            var logger = new AccumulationLogger();
            string[] lines =
            [
                .. ResultsHeader.Lines(Title, Source, $"dotnet run -c Release --project tests/Benchmarks -- {Flag}", Data),
                "",
                .. Rows,
                "",
            ];
            logger.WriteLine(string.Join(Environment.NewLine, lines));
            MarkdownExporter.GitHub.ExportToLog(summary, logger);
            var document = Path.Combine(RepositoryFolder.Root, "docs", "results", FileName);
            File.WriteAllText(document, logger.GetLog());
            log.WriteLine($"Wrote {document}");
        }

        return 0;
    }
}
