using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>A run's measurements regrouped by row, as the seed's table has them: one column per row, one line per measure.</summary>
public sealed class BenchmarkResults
{
    private BenchmarkResults(IReadOnlyList<MeasuredRow> rows, int expected, int measured, IReadOnlyList<string> failures)
    {
        Rows = rows;
        ExpectedBenchmarks = expected;
        MeasuredBenchmarks = measured;
        Failures = failures;
    }

    /// <summary>Every row of the lineup, in table order.</summary>
    public IReadOnlyList<MeasuredRow> Rows { get; }

    /// <summary>Benchmarks in the class for these rows (a serialize and a deserialize per row).</summary>
    public int ExpectedBenchmarks { get; }

    /// <summary>Benchmarks that produced a result.</summary>
    public int MeasuredBenchmarks { get; }

    /// <summary>Benchmarks that ran and failed, and validation errors.</summary>
    public IReadOnlyList<string> Failures { get; }

    /// <summary>True when every benchmark of the rows has a result: the table is whole.</summary>
    public bool IsComplete => MeasuredBenchmarks == ExpectedBenchmarks && Failures.Count == 0;

    public static BenchmarkResults From(RunRecord run, IReadOnlyList<OrganizationSerializer> lineup, PayloadCatalog catalog)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(lineup);
        ArgumentNullException.ThrowIfNull(catalog);
        var rows = lineup.Select(serializer => new MeasuredRow(
            serializer,
            catalog.Sizes.TryGetValue(serializer.Name, out var size) ? size : null,
            Find(run, serializer.Name, nameof(SerializerBenchmarks.Serialize)),
            Find(run, serializer.Name, nameof(SerializerBenchmarks.Deserialize)))).ToList();
        var measured = rows.Sum(row => (row.Serialization is null ? 0 : 1) + (row.Deserialization is null ? 0 : 1));
        return new BenchmarkResults(rows, lineup.Count * 2, measured, run.Failures);
    }

    private static Measurement? Find(RunRecord run, string row, string method) =>
        run.Measurements.FirstOrDefault(entry => entry.Key.Method == method && IsShownAs(row, entry.Key.Row)).Value;

    // A log may name a row as BenchmarkDotNet displayed it: a value longer than the parameter column is shortened to
    // its first and last five characters and its length, "Messa(...)Stream [25]" for "MessagePack-CSharp Stream" where the column is narrower.
    private static bool IsShownAs(string name, string shown)
    {
        if (name == shown)
        {
            return true;
        }

        var marker = shown.IndexOf("(...)", StringComparison.Ordinal);
        var suffix = $" [{name.Length}]";
        return marker >= 0
            && shown.EndsWith(suffix, StringComparison.Ordinal)
            && name.StartsWith(shown[..marker], StringComparison.Ordinal)
            && name.EndsWith(shown[(marker + 5)..^suffix.Length], StringComparison.Ordinal);
    }
}
