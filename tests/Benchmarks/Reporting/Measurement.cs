namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// One benchmark's result: the time of each measured iteration (one operation each, overhead removed) and the bytes
/// allocated per operation. On a shared machine other work adds delays to some iterations, so the median and the range
/// say more than the mean.
/// </summary>
public sealed record Measurement(IReadOnlyList<double> IterationsMs, long? AllocatedBytesPerOperation)
{
    public double MedianMs
    {
        get
        {
            var sorted = IterationsMs.Order().ToList();
            var middle = sorted.Count / 2;
            return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        }
    }

    public double MinMs => IterationsMs.Min();

    public double MaxMs => IterationsMs.Max();
}
