namespace WebSerialization.IntegrationTests;

/// <summary>Theory rows over the table of formats, and rows from a query for theories of two parameters.</summary>
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
}
