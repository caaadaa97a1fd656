using System.Globalization;
using System.Text;

namespace WebSerialization.Load;

/// <summary>Every measured sample of a scenario, one line each, for anyone who wants other statistics.</summary>
public static class CsvReport
{
    public static async Task WriteAsync(ScenarioResult result, string directory, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        var csv = new StringBuilder();
        csv.AppendLine("copy,started_ms,ttfb_ms,ttlb_ms,bytes_sent,bytes_received,status,succeeded,error");
        foreach (var sample in result.Samples)
        {
            csv.AppendLine(string.Create(
                CultureInfo.InvariantCulture,
                $"{sample.Copy},{sample.StartedAt.TotalMilliseconds:0.###},{sample.TimeToFirstByte?.TotalMilliseconds:0.###},{sample.TimeToLastByte.TotalMilliseconds:0.###},"
                + $"{sample.BytesSent},{sample.BytesReceived},{sample.StatusCode},{(sample.Succeeded ? "true" : "false")},{Quote(sample.Error)}"));
        }

        await File.WriteAllTextAsync(Path.Combine(directory, result.ReportName + ".csv"), csv.ToString(), cancellationToken);
    }

    private static string Quote(string? text) =>
        text is null ? string.Empty : "\"" + text.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
