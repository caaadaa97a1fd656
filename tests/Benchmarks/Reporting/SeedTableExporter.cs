using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The run's results as one Markdown page (*-seed-table.md, and docs/results/benchmarks.md after a full run): what
/// BenchmarkDotNet cannot lay out itself, then its own table.
/// </summary>
public sealed class SeedTableExporter(string command, IReadOnlyDictionary<string, long> sizes, bool fullRun) : ExporterBase
{
    /// <summary>The command of the full run, the one that writes docs/results/benchmarks.md.</summary>
    public const string FullRunCommand = "dotnet run -c Release --project tests/Benchmarks";

    /// <summary>The caveat of a dry, partial or smaller run, whose verdicts judge nothing.</summary>
    public const string NotTheFullRun =
        "Not the full run (dry, a subset of rows or benchmarks, or fewer members): these verdicts show that the evaluation works; the ones that count come from the full run.";

    // The seed article's published table (its allocations from its BenchmarkDotNet run of both operations together),
    // for reference only: only ratios within one of our runs are judged.
    private static readonly string[] SeedArticleRows =
    [
        "| *seed article: Json* | 187.13 | 2383 | 3581 | – |",
        "| *seed article: Custom Binary* | 88.55 | 983 | 530 | 1230.31 |",
        "| *seed article: Binary (BinaryWriter)* | 79.97 | 1023 | 632 | 566.16 |",
        "| *seed article: ProtoBuf (protobuf-net)* | 84.72 | 754 | 1014 | 581.66 |",
        "| *seed article: MessagePack (Lz4BlockArray)* | 36.91 | 681 | 986 | 449.67 |",
    ];

    protected override string FileExtension => "md";

    protected override string FileCaption => "seed-table";

    public override void ExportToLog(Summary summary, ILogger logger)
    {
        var rows = RowResult.From(summary, sizes);
        var data = string.Create(
            CultureInfo.InvariantCulture, $"`OrganizationGenerator.Create({BenchmarkCommandLine.BenchmarkMemberCount:N0})`; times are the median of the iterations, MB are 2^20 bytes");
        string[] lines =
        [
            .. ResultsHeader.Lines("Serializer benchmarks", "docs/performance.md says what it measures", command, data),
            "- **Machine**:",
            "",
            "```",
            .. summary.HostEnvironmentInfo.ToFormattedString(),
            "```",
            "",
            "## The seed's table",
            "",
            "Our rows, then the article's as published (its machine, .NET 8, one Stopwatch run each: compare ratios, not absolute times).",
            "",
            "| row | size MB | serialize ms | deserialize ms | allocated MB, both |",
            "|---|---:|---:|---:|---:|",
            .. rows.Select(row =>
                $"| {row.Name} | {Mb(row.SizeBytes)} | {Ms(row.SerializeMs)} | {Ms(row.DeserializeMs)} | {Mb(row.SerializeAllocatedBytes + row.DeserializeAllocatedBytes)} |"),
            .. SeedArticleRows,
            "",
            "## Upload summaries",
            "",
            "The checksum an upload answers with, from the same payload: our streaming rows fold each decoded member's fields into it as the API does, every other row deserializes the objects and hashes them.",
            "",
            "| row | summarize ms | allocated MB | objects built |",
            "|---|---:|---:|---|",
            .. rows.Select(row =>
                $"| {row.Name} | {Ms(row.SummarizeMs)} | {Mb(row.SummarizeAllocatedBytes)} | {(row.Serializer.IsStreaming ? "none" : "every member")} |"),
            "",
            "## Targets",
            "",
            .. fullRun && RowResult.IsComplete(rows) ? Array.Empty<string>() : [NotTheFullRun, ""],
            .. TargetVerdicts.Judge(rows).Select(verdict => $"- {verdict}"),
            "",
            "## What each row runs",
            "",
            .. rows.Select(row => $"- **{row.Name}**: {row.Serializer.Description}"),
            "",
            "## BenchmarkDotNet's table",
            "",
        ];
        logger.WriteLine(string.Join(Environment.NewLine, lines));
        MarkdownExporter.GitHub.ExportToLog(summary, logger);
    }

    /// <summary>The page as a string, for docs/results/benchmarks.md.</summary>
    public string Render(Summary summary)
    {
        var logger = new AccumulationLogger();
        ExportToLog(summary, logger);
        return logger.GetLog();
    }

    // Whole milliseconds as the seed prints them; a decimal for the short operations of small runs.
    private static string Ms(double? ms) => ms is { } value ? value.ToString(value >= 100 ? "F0" : "F1", CultureInfo.InvariantCulture) : "–";

    // A streaming writer allocates far below 1 MB: four decimals keep it from reading as zero.
    private static string Mb(long? bytes) =>
        bytes is { } value ? (value / (double)(1 << 20)).ToString(value >= 1 << 20 ? "F2" : "F4", CultureInfo.InvariantCulture) : "–";
}
