using WebSerialization.Models;

namespace WebSerialization.Tests.Support;

/// <summary>Theory rows over the table of formats, and rows of two parameters from a query or from every pair of two lists.</summary>
public static class TheoryRows
{
    public static TheoryData<WireFormat> Formats => [.. WireFormat.All];

    public static TheoryData<T1, T2> Of<T1, T2>(IEnumerable<(T1, T2)> rows)
    {
        var data = new TheoryData<T1, T2>();
        foreach (var (first, second) in rows)
        {
            data.Add(first, second);
        }

        return data;
    }

    /// <summary>One row per pair, every first value with every second.</summary>
    public static TheoryData<T1, T2> Cross<T1, T2>(IEnumerable<T1> firsts, IEnumerable<T2> seconds) =>
        Of(from first in firsts from second in seconds select (first, second));
}
