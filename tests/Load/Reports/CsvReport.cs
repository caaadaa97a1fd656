using System.Text;

namespace WebSerialization.Load.Reports;

/// <summary>Every measured sample of a scenario, one line each, for anyone who wants other statistics.</summary>
public static class CsvReport
{
    /// <summary>Writes <see cref="Samples"/> to <c>{report name}.csv</c>.</summary>
    public static Task WriteAsync(RepeatedScenario scenario, string directory, CancellationToken cancellationToken) =>
        File.WriteAllTextAsync(Path.Combine(directory, scenario.ReportName + ".csv"), Samples(scenario), cancellationToken);

    /// <summary>Every measured sample of every repetition, the repetition first on each line.</summary>
    public static string Samples(RepeatedScenario scenario)
    {
        var csv = new StringBuilder();
        csv.AppendLine("repetition,copy,started_ms,ttfb_ms,ttlb_ms,bytes_sent,bytes_received,status,succeeded,error");
        foreach (var result in scenario.Repetitions)
        {
            foreach (var sample in result.Samples)
            {
                csv.AppendLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"{result.Repetition},{sample.Copy},{sample.StartedAt.TotalMilliseconds:0.###},{sample.TimeToFirstByte?.TotalMilliseconds:0.###},{sample.TimeToLastByte.TotalMilliseconds:0.###},"
                    + $"{sample.BytesSent},{sample.BytesReceived},{sample.StatusCode},{(sample.Succeeded ? "true" : "false")},{Quote(sample.Error)}"));
            }
        }

        return csv.ToString();
    }

    private static string Quote(string? text) =>
        text is null ? string.Empty : "\"" + text.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
