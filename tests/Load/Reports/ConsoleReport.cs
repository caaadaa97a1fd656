using System.Globalization;

namespace WebSerialization.Load.Reports;

/// <summary>The short lines printed while the run goes on.</summary>
public static class ConsoleReport
{
    /// <summary>One scenario's result on one line.</summary>
    public static string OneLine(ScenarioResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var latency = result.Latency;
        var allocated = result.ServerCost?.AllocatedBytesPerRequest;
        var failure = result.FailureReasons.FirstOrDefault() is { Error: not null } reason ? $"; failures: {reason.Error} x{reason.Count}" : string.Empty;
        return string.Create(CultureInfo.InvariantCulture, $"{result.Succeeded.Count()} ok, {result.FailedCount} failed in {result.Elapsed.TotalSeconds:0.0} s; ")
            + $"p50 {Format(latency?.P50)} ms, p95 {Format(latency?.P95)} ms; {Format(result.MegabytesPerSecond)} MB/s; "
            + $"server {Format(allocated / Units.BytesPerMegabyte, "0.000")} MB allocated/request, "
            + $"{result.ServerCost?.Gen2Collections.ToString(CultureInfo.InvariantCulture) ?? "-"} gen2 GCs, "
            + $"peak working set {Format(result.PeakWorkingSet / Units.BytesPerMegabyte)} MB"
            + (result.Rate is not null ? string.Create(CultureInfo.InvariantCulture, $"; {result.LateRequests} late, {result.DroppedRequests} dropped") : string.Empty)
            + string.Concat(result.Steps.Select(step => $"; step {step.Name} p50 {Format(step.Latency?.P50)} ms{(step.Failed > 0 ? string.Create(CultureInfo.InvariantCulture, $", {step.Failed} failed") : string.Empty)}"))
            + failure;
    }

    public static string Format(double? value, string format = "0.0") =>
        value is { } number ? number.ToString(format, CultureInfo.InvariantCulture) : "-";
}
