namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Theory rows over the formats, by key, so that each format's row is a test case of its own in a listing.</summary>
internal static class TheoryRows
{
    public static IEnumerable<string> FormatKeys => WireFormat.All.Select(format => format.Key);

    /// <summary>One row per pair, every first value with every second.</summary>
    public static TheoryData<TFirst, TSecond> Cross<TFirst, TSecond>(IEnumerable<TFirst> firsts, IEnumerable<TSecond> seconds)
    {
        var data = new TheoryData<TFirst, TSecond>();
        foreach (var first in firsts)
        {
            foreach (var second in seconds)
            {
                data.Add(first, second);
            }
        }

        return data;
    }
}
