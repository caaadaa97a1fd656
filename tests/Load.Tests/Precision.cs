namespace WebSerialization.Load.Tests;

/// <summary>
/// Latency figures come from an HdrHistogram, which keeps 3 significant digits: a percentile read back is within
/// 0.1 % of the recorded value, and so is anything drawn from it.
/// </summary>
internal static class Precision
{
    // What LatencyHistogram promises; a histogram that kept fewer digits breaks the tests that compare within it.
    private const double Relative = 0.001;

    public static void AssertWithin(IReadOnlyList<double> expected, IEnumerable<double> actual)
    {
        var values = actual.ToArray();
        Assert.Equal(expected.Count, values.Length);
        for (var i = 0; i < values.Length; i++)
        {
            var tolerance = Math.Abs(expected[i]) * Relative;
            Assert.True(Math.Abs(values[i] - expected[i]) <= tolerance, $"value {i}: expected {expected[i]} within {tolerance}, got {values[i]}");
        }
    }

    public static double Number(string text) => double.Parse(text, CultureInfo.InvariantCulture);
}
