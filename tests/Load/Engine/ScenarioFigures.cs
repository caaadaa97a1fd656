namespace WebSerialization.Load.Engine;

/// <summary>
/// The figures of one row of the summary: one repetition's own (<see cref="Of"/>), or several repetitions' put
/// together (<see cref="Aggregate"/>). Latencies are in milliseconds; null is "not measured".
/// </summary>
/// <param name="Failed">Measured requests that failed, plus failed warm-up requests.</param>
/// <param name="MegabytesPerSecond">Body bytes moved per second of the measured phase, in MB/s.</param>
/// <param name="ServerCpuMillisecondsPerRequest">The server process's CPU time per request; null when the runner did not start it.</param>
/// <param name="PeakWorkingSet">The server's largest working set, in bytes; 0 when not watched.</param>
/// <param name="WorkingSetRaise">How far that peak was above the server's idle working set.</param>
public sealed record ScenarioFigures(
    int Succeeded,
    int Failed,
    double? ResponseBytes,
    double? TimeToFirstByteP50,
    double? P50,
    double? P95,
    double? P99,
    double? MegabytesPerSecond,
    double? AllocatedBytesPerRequest,
    double? ServerCpuMillisecondsPerRequest,
    double? Gen2Collections,
    long PeakWorkingSet,
    long WorkingSetRaise)
{
    public static ScenarioFigures Of(ScenarioResult result)
    {
        var latency = result.Latency;
        return new ScenarioFigures(
            result.Succeeded.Count(),
            result.FailedCount + result.WarmUpFailures,
            result.ResponseBytes,
            result.TimeToFirstByte?.P50,
            latency?.P50,
            latency?.P95,
            latency?.P99,
            result.MegabytesPerSecond,
            result.ServerCost?.AllocatedBytesPerRequest,
            result.ServerCpuMillisecondsPerRequest,
            result.ServerCost?.Gen2Collections,
            result.PeakWorkingSet,
            result.WorkingSetRaise);
    }

    /// <summary>
    /// Several repetitions as one row: request counts are totals; every other figure is the median over the
    /// repetitions that measured it, except the working set, which is that of the repetition that raised it most (a
    /// memory bound holds only if it holds every time). One repetition's figures are its own.
    /// </summary>
    public static ScenarioFigures Aggregate(IReadOnlyList<ScenarioResult> repetitions)
    {
        var each = repetitions.Select(Of).ToArray();
        var largestRaise = each.Where(figures => figures.PeakWorkingSet > 0).MaxBy(figures => figures.WorkingSetRaise);
        return new ScenarioFigures(
            each.Sum(figures => figures.Succeeded),
            each.Sum(figures => figures.Failed),
            Median(each.Select(figures => figures.ResponseBytes)),
            Median(each.Select(figures => figures.TimeToFirstByteP50)),
            Median(each.Select(figures => figures.P50)),
            Median(each.Select(figures => figures.P95)),
            Median(each.Select(figures => figures.P99)),
            Median(each.Select(figures => figures.MegabytesPerSecond)),
            Median(each.Select(figures => figures.AllocatedBytesPerRequest)),
            Median(each.Select(figures => figures.ServerCpuMillisecondsPerRequest)),
            Median(each.Select(figures => figures.Gen2Collections)),
            largestRaise?.PeakWorkingSet ?? 0,
            largestRaise?.WorkingSetRaise ?? 0);
    }

    /// <summary>The median of the values that are there (the mean of the middle two when their count is even); null when none is.</summary>
    public static double? Median(IEnumerable<double?> values)
    {
        var sorted = values.OfType<double>().Order().ToArray();
        return sorted.Length == 0 ? null
            : sorted.Length % 2 == 1 ? sorted[sorted.Length / 2]
            : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
