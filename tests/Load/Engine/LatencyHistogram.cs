using HdrHistogram;

namespace WebSerialization.Load.Engine;

/// <summary>
/// Request times recorded into an HdrHistogram, in microseconds from 1 µs to 1 hour with 3 significant digits: every
/// percentile read from it is within 0.1 % of a recorded value, in 40 KB whatever the number of requests. Histograms of
/// one scenario's copies, phases or runs merge with <see cref="Add"/>.
/// </summary>
public sealed class LatencyHistogram
{
    private const long HighestMicroseconds = 3_600_000_000;
    private const int SignificantDigits = 3;

    // Concurrent: the copies of a phase record into one histogram while the progress display reads it.
    private readonly LongConcurrentHistogram _histogram = new(1, HighestMicroseconds, SignificantDigits);

    public long Count => _histogram.TotalCount;

    /// <summary>Records one request's time; times beyond an hour are recorded as an hour.</summary>
    public void Record(TimeSpan time) =>
        _histogram.RecordValue(Math.Clamp((long)Math.Round(time.TotalMicroseconds), 1, HighestMicroseconds));

    public void Add(LatencyHistogram other)
    {
        _histogram.Add(other._histogram);
    }

    /// <summary>A copy of the recorded values as an HdrHistogram, for a histogram log (<see cref="HistogramLog"/>).</summary>
    public HistogramBase ToHdrHistogram() => _histogram.Copy();

    /// <summary>
    /// True when <paramref name="recorded"/> has this class's bounds and precision, so that adding it adds bucket to
    /// bucket and the sum is the histogram of every value recorded in either.
    /// </summary>
    public static bool RecordsAsThis(HistogramBase recorded) =>
        recorded.LowestTrackableValue == 1 && recorded.HighestTrackableValue == HighestMicroseconds && recorded.NumberOfSignificantValueDigits == SignificantDigits;

    /// <summary>Adds an HdrHistogram read back from a log; throws <see cref="ArgumentException"/> unless <see cref="RecordsAsThis"/>.</summary>
    public void Add(HistogramBase recorded)
    {
        if (!RecordsAsThis(recorded))
        {
            throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"The histogram was recorded from {recorded.LowestTrackableValue} to {recorded.HighestTrackableValue} with {recorded.NumberOfSignificantValueDigits} significant digits, not from 1 to {HighestMicroseconds} µs with {SignificantDigits}."), nameof(recorded));
        }

        _histogram.Add(recorded);
    }

    public static LatencyHistogram Of(IEnumerable<TimeSpan> times)
    {
        var histogram = new LatencyHistogram();
        foreach (var time in times)
        {
            histogram.Record(time);
        }

        return histogram;
    }

    /// <summary>The value at <paramref name="percentile"/> (0 to 100), in milliseconds; null when nothing is recorded.</summary>
    public double? Percentile(double percentile) =>
        Count == 0 ? null : _histogram.GetValueAtPercentile(percentile) / 1000.0;

    public LatencyDistribution? ToDistribution()
    {
        if (Count == 0)
        {
            return null;
        }

        var snapshot = _histogram.Copy();
        var lowest = snapshot.RecordedValues().First().ValueIteratedTo;
        return new LatencyDistribution(
            (int)Math.Min(int.MaxValue, snapshot.TotalCount),
            snapshot.LowestEquivalentValue(lowest) / 1000.0,
            snapshot.GetMean() / 1000.0,
            snapshot.GetValueAtPercentile(50) / 1000.0,
            snapshot.GetValueAtPercentile(95) / 1000.0,
            snapshot.GetValueAtPercentile(99) / 1000.0,
            snapshot.GetMaxValue() / 1000.0);
    }
}
