using System.Globalization;
using System.Text;

namespace WebSerialization.Load.Reports;

/// <summary>The report of a merge (<c>merge a.hlog b.hlog</c>): which logs, then one row per scenario and load over all of them.</summary>
public static class MergedReport
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>What the columns of <see cref="Table"/> mean.</summary>
    public const string Legend =
        "Each row is one scenario and load over every log. OK, Failed (dropped requests and failed warm-up requests included) and Late are totals. "
        + "Latency is from each request's intended start to its last byte; its figures are read from the sum of the runners' HdrHistograms "
        + "(3 significant digits), which is the histogram of every request they made, not an average of their percentiles. "
        + "Requests/s and MB/s (body bytes sent plus received) are the sums of each runner's own over its measured time, the runners having run side by side. "
        + "MB = 2^20 bytes.";

    /// <summary>One row per merged scenario and load.</summary>
    public static ReportTable Table(IReadOnlyList<MergedLoad> loads)
    {
        ArgumentNullException.ThrowIfNull(loads);
        return new ReportTable(
            ["Scenario and load", "Logs", "OK", "Failed", "Late", "Response MB", "Requests/s", "MB/s", "min ms", "mean ms", "p50 ms", "p95 ms", "p99 ms", "max ms"],
            1,
            [.. loads.Select(load =>
            {
                var latency = load.Latency.ToDistribution();
                return (IReadOnlyList<string>)
                [
                    load.Tag,
                    load.Logs.ToString(Invariant),
                    load.Succeeded.ToString(Invariant),
                    load.Failed.ToString(Invariant),
                    load.Late.ToString(Invariant),
                    ConsoleReport.Format(load.ResponseBytes / Units.BytesPerMegabyte, "0.000"),
                    ConsoleReport.Format(load.RequestsPerSecond, "0.0"),
                    ConsoleReport.Format(load.MegabytesPerSecond),
                    ConsoleReport.Format(latency?.Min, "0.0"),
                    ConsoleReport.Format(latency?.Mean, "0.0"),
                    ConsoleReport.Format(latency?.P50, "0.0"),
                    ConsoleReport.Format(latency?.P95, "0.0"),
                    ConsoleReport.Format(latency?.P99, "0.0"),
                    ConsoleReport.Format(latency?.Max, "0.0"),
                ];
            })]);
    }

    /// <summary>The logs merged, one line each.</summary>
    public static IReadOnlyList<string> Sources(IReadOnlyList<HistogramLogFile> logs)
    {
        ArgumentNullException.ThrowIfNull(logs);
        return [.. logs.Select(log => $"`{log.Name}`: {log.Runner}")];
    }

    /// <summary>The whole report as Markdown: title, logs, table, legend.</summary>
    public static string Markdown(IReadOnlyList<HistogramLogFile> logs, IReadOnlyList<MergedLoad> loads)
    {
        ArgumentNullException.ThrowIfNull(logs);
        var md = new StringBuilder();
        md.AppendLine(Invariant, $"# Merged load: {logs.Count} runner{(logs.Count == 1 ? string.Empty : "s")}");
        md.AppendLine();
        foreach (var source in Sources(logs))
        {
            md.AppendLine(Invariant, $"- {source}");
        }

        md.AppendLine();
        MarkdownReport.AppendTable(md, Table(loads));
        md.AppendLine();
        md.AppendLine(Legend);
        return md.ToString();
    }
}
