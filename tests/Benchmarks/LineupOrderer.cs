using System.Collections.Immutable;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace WebSerialization.Benchmarks;

/// <summary>
/// Orders the benchmarks by method, then in the lineup's order, so that a format's rows sit together: BenchmarkDotNet's
/// orderer compares parameter values only when they are of one type, and the rows are of several. Grouping and
/// highlighting stay the default orderer's.
/// </summary>
public sealed class LineupOrderer : DefaultOrderer
{
    public override IEnumerable<BenchmarkCase> GetExecutionOrder(
        ImmutableArray<BenchmarkCase> benchmarksCase, IEnumerable<BenchmarkLogicalGroupRule>? order = null) => InLineupOrder(benchmarksCase);

    public override IEnumerable<BenchmarkCase> GetSummaryOrder(ImmutableArray<BenchmarkCase> benchmarksCases, Summary summary) =>
        InLineupOrder(benchmarksCases);

    private static IEnumerable<BenchmarkCase> InLineupOrder(IEnumerable<BenchmarkCase> cases) =>
        cases.OrderBy(benchmarkCase => benchmarkCase.Descriptor.MethodIndex).ThenBy(benchmarkCase => RowResult.Row(benchmarkCase)?.Position ?? int.MaxValue);
}
