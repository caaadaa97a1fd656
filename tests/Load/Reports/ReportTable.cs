namespace WebSerialization.Load.Reports;

/// <summary>
/// A table of the reports as text cells, built once and laid out by the Markdown and the HTML report, so the two show
/// the same figures.
/// </summary>
/// <param name="Columns">The column headings.</param>
/// <param name="FirstNumericColumn">Columns from this index on hold figures (right-aligned); the column count when none do.</param>
/// <param name="Rows">The cells, one list per row, as many as <paramref name="Columns"/>.</param>
public sealed record ReportTable(IReadOnlyList<string> Columns, int FirstNumericColumn, IReadOnlyList<IReadOnlyList<string>> Rows)
{
    public bool IsNumeric(int column) => column >= FirstNumericColumn;
}
