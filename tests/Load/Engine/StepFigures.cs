namespace WebSerialization.Load.Engine;

/// <summary>One step's figures over a phase's invocations: its own latency histogram, counts and mean size.</summary>
/// <param name="Latency">The successful runs' durations; null when none succeeded.</param>
/// <param name="ResponseBytes">Mean bytes received by the successful runs.</param>
/// <param name="RequestBytes">Mean bytes sent by the successful runs.</param>
public sealed record StepFigures(string Name, int Succeeded, int Failed, LatencyDistribution? Latency, double? ResponseBytes, double? RequestBytes)
{
    /// <summary>The figures of every step in <paramref name="samples"/>, in the order the steps first ran.</summary>
    public static IReadOnlyList<StepFigures> Of(IEnumerable<RequestSample> samples)
    {
        return [.. samples
            .SelectMany(sample => sample.Steps ?? [])
            .GroupBy(step => step.Name, StringComparer.Ordinal)
            .Select(group =>
            {
                var ok = group.Where(step => step.Succeeded).ToArray();
                return new StepFigures(
                    group.Key,
                    ok.Length,
                    group.Count() - ok.Length,
                    LatencyHistogram.Of(ok.Select(step => step.Duration)).ToDistribution(),
                    ok.Length > 0 ? ok.Average(step => (double)step.SizeBytes) : null,
                    ok.Length > 0 ? ok.Average(step => (double)step.BytesSent) : null);
            })];
    }
}
