using System.Collections.Immutable;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace WebSerialization.Benchmarks;

/// <summary>
/// Orders the benchmarks by method, then in the lineup's order, so that a format's rows sit together: BenchmarkDotNet's
/// orderer compares parameter values only when they are of one type, and the rows are of several.
/// </summary>
public sealed class LineupOrderer : IOrderer
{
    private static readonly IOrderer Default = DefaultOrderer.Instance;

    public bool SeparateLogicalGroups => Default.SeparateLogicalGroups;

    public IEnumerable<BenchmarkCase> GetExecutionOrder(ImmutableArray<BenchmarkCase> benchmarksCase, IEnumerable<BenchmarkLogicalGroupRule>? order = null) =>
        InLineupOrder(benchmarksCase);

    public IEnumerable<BenchmarkCase> GetSummaryOrder(ImmutableArray<BenchmarkCase> benchmarksCases, Summary summary) => InLineupOrder(benchmarksCases);

    public string? GetHighlightGroupKey(BenchmarkCase benchmarkCase) => Default.GetHighlightGroupKey(benchmarkCase);

    // DefaultOrderer always returns a key (it joins the case's job, parameters and categories).
    public string GetLogicalGroupKey(ImmutableArray<BenchmarkCase> allBenchmarksCases, BenchmarkCase benchmarkCase) =>
        Default.GetLogicalGroupKey(allBenchmarksCases, benchmarkCase) ?? string.Empty;

    public IEnumerable<IGrouping<string, BenchmarkCase>> GetLogicalGroupOrder(
        IEnumerable<IGrouping<string, BenchmarkCase>> logicalGroups, IEnumerable<BenchmarkLogicalGroupRule>? order = null) =>
        Default.GetLogicalGroupOrder(logicalGroups, order);

    private static IEnumerable<BenchmarkCase> InLineupOrder(IEnumerable<BenchmarkCase> cases) =>
        cases.OrderBy(benchmarkCase => benchmarkCase.Descriptor.MethodIndex).ThenBy(benchmarkCase => RowResult.Row(benchmarkCase)?.Position ?? int.MaxValue);
}
