namespace WebSerialization.Load.Reports;

/// <summary>A group of bars with its own scale, e.g. every format's download of 10,000 members with 1 copy.</summary>
public sealed record BarChartPanel(string Title, IReadOnlyList<BarChartBar> Bars);
