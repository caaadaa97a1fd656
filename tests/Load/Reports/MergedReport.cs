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
    public static ReportTable Table(IReadOnlyList<MergedLoad> loads) => new(
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
                .. new[] { latency?.Min, latency?.Mean, latency?.P50, latency?.P95, latency?.P99, latency?.Max }.Select(milliseconds => ConsoleReport.Format(milliseconds, "0.0")),
            ];
        })]);

    /// <summary>The logs merged, one line each.</summary>
    public static IReadOnlyList<string> Sources(IReadOnlyList<HistogramLogFile> logs) =>
        [.. logs.Select(log => $"`{log.Name}`: {log.Runner}")];

    /// <summary>The whole report as Markdown: title, logs, table, legend.</summary>
    public static string Markdown(IReadOnlyList<HistogramLogFile> logs, IReadOnlyList<MergedLoad> loads)
    {
        var md = new StringBuilder();
        md.AppendLine(Invariant, $"# Merged load: {logs.Count} runner{(logs.Count == 1 ? string.Empty : "s")}").AppendLine();
        foreach (var source in Sources(logs))
            md.AppendLine(Invariant, $"- {source}");

        md.AppendLine();
        md.Append(Table(loads).ToMarkdown());
        md.AppendLine().AppendLine(Legend);
        return md.ToString();
    }
}

/// <summary>One scenario and load over several runners' histogram logs: their histograms added bucket to bucket, which is the
/// histogram of every request any of them made (percentiles read from it, never averaged), and their counts summed.
/// The runners ran side by side, so their rates add up too.</summary>
/// <param name="Logs">How many logs it came from.</param>
/// <param name="Failed">Failed requests, the dropped ones (which the logs count apart) included.</param>
/// <param name="RequestsPerSecond">The sum of each runner's successful requests per second of its measured time.</param>
/// <param name="MegabytesPerSecond">The sum of each runner's body bytes (sent plus received) per second of its measured time, in MB/s.</param>
public sealed record MergedLoad(string Tag, LatencyHistogram Latency, int Logs, long Failed, long Late, long BytesReceived, double? RequestsPerSecond, double? MegabytesPerSecond)
{
    public long Succeeded => Latency.Count;

    /// <summary>Mean response body of the successful requests, in bytes.</summary>
    public double? ResponseBytes => Succeeded > 0 ? BytesReceived / (double)Succeeded : null;

    /// <summary>The logs' scenarios and loads merged, in the first log's order. Throws <see cref="InvalidDataException"/> when
    /// the logs do not belong together: the same run given twice, or runners that ran different scenarios or loads.</summary>
    public static IReadOnlyList<MergedLoad> Of(IReadOnlyList<HistogramLogFile> logs)
    {
        if (logs.Count == 0)
            throw new ArgumentException("Nothing to merge.", nameof(logs));

        if (logs.GroupBy(log => log.Runner).FirstOrDefault(run => run.Count() > 1) is { } twice)
            throw new InvalidDataException($"{twice.First().Name} and {twice.ElementAt(1).Name} are the same run ({twice.Key}): merging it twice would count its requests twice.");

        var first = logs[0];
        var tags = first.Entries.Select(entry => entry.Tag).ToArray();
        foreach (var log in logs.Skip(1))
        {
            var missing = tags.Except(log.Entries.Select(entry => entry.Tag), StringComparer.Ordinal).ToArray();
            var extra = log.Entries.Select(entry => entry.Tag).Except(tags, StringComparer.Ordinal).ToArray();
            if (missing.Length > 0 || extra.Length > 0)
            {
                var what = string.Join("; ", new[]
                {
                    missing.Length > 0 ? $"{first.Name} has {string.Join(", ", missing)}, which {log.Name} has not" : null,
                    extra.Length > 0 ? $"{log.Name} has {string.Join(", ", extra)}, which {first.Name} has not" : null,
                }.OfType<string>());
                throw new InvalidDataException($"The logs measured different scenarios or loads: {what}. Merge the logs of runners given the same --scenarios, --count and --copies or --rate.");
            }
        }

        return [.. tags.Select(tag => Merge(tag, [.. logs.Select(log => log.Entries.Single(entry => entry.Tag == tag))]))];
    }

    private static MergedLoad Merge(string tag, IReadOnlyList<HistogramLogEntry> entries)
    {
        var latency = new LatencyHistogram();
        foreach (var entry in entries)
            latency.Add(entry.Latency);

        var timed = entries.Where(entry => entry.Elapsed > TimeSpan.Zero).ToArray();
        return new MergedLoad(
            tag,
            latency,
            entries.Count,
            entries.Sum(entry => entry.Failed),
            entries.Sum(entry => entry.Late),
            entries.Sum(entry => entry.BytesReceived),
            timed.Length == 0 ? null : timed.Sum(entry => entry.Succeeded / entry.Elapsed.TotalSeconds),
            timed.Length == 0 ? null : timed.Sum(entry => (entry.BytesSent + entry.BytesReceived) / Units.BytesPerMegabyte / entry.Elapsed.TotalSeconds));
    }
}
