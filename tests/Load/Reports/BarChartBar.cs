namespace WebSerialization.Load.Reports;

/// <summary>One bar of a <see cref="BarChart"/>.</summary>
/// <param name="Label">What the bar is, left of it (a format).</param>
/// <param name="ColorIndex">Picks the bar's colour, so that one format has one colour in every panel and chart.</param>
/// <param name="Value">The bar's length, in the chart's unit.</param>
/// <param name="Marks">Further values drawn across the bar as ticks (p95, p99), in the order of <see cref="BarChart.MarkNames"/>.</param>
/// <param name="ValueText">The figures written right of the bar.</param>
/// <param name="Range">A spread drawn across the bar as a whisker (the p50 of the slowest and fastest runs); null for none.</param>
public sealed record BarChartBar(string Label, int ColorIndex, double Value, IReadOnlyList<double> Marks, string ValueText, Spread? Range = null);
