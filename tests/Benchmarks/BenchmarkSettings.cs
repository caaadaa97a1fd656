using System.Globalization;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks;

/// <summary>
/// What the benchmark processes read from their environment: BenchmarkDotNet starts one process per benchmark, and
/// the member count reaches them as an environment variable (set by Program, inherited or set on the job).
/// </summary>
public static class BenchmarkSettings
{
    /// <summary>The environment variable that carries the member count.</summary>
    public const string MemberCountVariable = "WEBSERIALIZATION_BENCHMARK_MEMBERS";

    /// <summary>The environment variable that carries the <c>--rows</c> selection (comma-separated parts of row names).</summary>
    public const string RowsVariable = "WEBSERIALIZATION_BENCHMARK_ROWS";

    /// <summary>The members of the generated organization: the seed's 1,000,000 unless the variable says otherwise.</summary>
    public static int MemberCount =>
        int.TryParse(Environment.GetEnvironmentVariable(MemberCountVariable), NumberStyles.None, CultureInfo.InvariantCulture, out var count)
            ? count
            : OrganizationGenerator.ArticleMemberCount;

    /// <summary>True when <paramref name="rowName"/> is selected: no selection, or it contains one of the parts (ignoring case).</summary>
    public static bool IsSelected(string rowName)
    {
        var rows = Environment.GetEnvironmentVariable(RowsVariable);
        return string.IsNullOrWhiteSpace(rows)
            || rows.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .Any(part => rowName.Contains(part, StringComparison.OrdinalIgnoreCase));
    }
}
