namespace WebSerialization.Load.Tests;

public class LatencyHistogramTests
{
    [Fact]
    public void MergedHistogramsGiveThePercentilesOfAllTheirValues()
    {
        var fast = LatencyHistogram.Of(Enumerable.Range(1, 90).Select(ms => TimeSpan.FromMilliseconds(ms)));
        var slow = LatencyHistogram.Of(Enumerable.Range(91, 10).Select(ms => TimeSpan.FromMilliseconds(ms * 10)));
        var all = LatencyHistogram.Of([.. Enumerable.Range(1, 90).Select(ms => TimeSpan.FromMilliseconds(ms)), .. Enumerable.Range(91, 10).Select(ms => TimeSpan.FromMilliseconds(ms * 10))]);

        fast.Add(slow);

        Assert.Equal(100, fast.Count);
        Assert.Equal(all.ToDistribution(), fast.ToDistribution());
        Precision.AssertWithin([50, 950, 990, 1000], [fast.Percentile(50)!.Value, fast.Percentile(95)!.Value, fast.Percentile(99)!.Value, fast.ToDistribution()!.Max]);
    }

    [Fact]
    public void ReadsEveryPercentileWithinItsStatedPrecision()
    {
        var values = Enumerable.Range(0, 1000).Select(i => 0.5 + (i * 7.3)).ToArray();
        var distribution = LatencyHistogram.Of(values.Select(TimeSpan.FromMilliseconds)).ToDistribution()!;

        // Nearest rank over the sorted values, which the histogram stands in for.
        double Rank(double percent) => values[(int)Math.Ceiling(percent / 100 * values.Length) - 1];
        Precision.AssertWithin([values[0], Rank(50), Rank(95), Rank(99), values[^1], values.Average()],
            [distribution.Min, distribution.P50, distribution.P95, distribution.P99, distribution.Max, distribution.Mean]);
    }

    [Fact]
    public void HasNothingToSayWhenNothingWasRecorded()
    {
        Assert.Null(new LatencyHistogram().ToDistribution());
        Assert.Null(new LatencyHistogram().Percentile(99));
    }
}
