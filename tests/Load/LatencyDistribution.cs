namespace WebSerialization.Load;

/// <summary>
/// Order statistics of one measure over a scenario's samples, in milliseconds. Percentiles are nearest-rank over the
/// recorded samples (no histogram, no interpolation): p99 of 20 samples is the largest one.
/// </summary>
public sealed record LatencyDistribution(int Count, double Min, double Mean, double P50, double P95, double P99, double Max)
{
    /// <summary>The distribution of <paramref name="milliseconds"/>, or null when there are none.</summary>
    public static LatencyDistribution? Of(IEnumerable<double> milliseconds)
    {
        var sorted = milliseconds.Order().ToArray();
        return sorted.Length == 0
            ? null
            : new LatencyDistribution(
                sorted.Length,
                sorted[0],
                sorted.Average(),
                Percentile(sorted, 50),
                Percentile(sorted, 95),
                Percentile(sorted, 99),
                sorted[^1]);
    }

    private static double Percentile(double[] sorted, double percent)
    {
        var rank = (int)Math.Ceiling(percent / 100 * sorted.Length);
        return sorted[Math.Clamp(rank - 1, 0, sorted.Length - 1)];
    }
}
