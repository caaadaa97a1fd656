using Spectre.Console;
using Spectre.Console.Rendering;

namespace WebSerialization.Load.Reports;

/// <summary>
/// The end of a run on a terminal: the summary, the capacity table and the targets as Spectre.Console tables, built
/// from the same <see cref="ReportTable"/>s as the Markdown and HTML reports. Not on a terminal (CI, a pipe) the
/// Markdown summary is printed instead, so logs stay plain text.
/// </summary>
public static class ConsoleSummary
{
    /// <summary>The tables to write, in order: the summary, the capacity search's when there was one, the targets when any.</summary>
    public static IReadOnlyList<IRenderable> Render(IReadOnlyList<ScenarioResult> results, IReadOnlyList<CapacityResult> capacities, IReadOnlyList<TargetVerdict> targets)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(capacities);
        ArgumentNullException.ThrowIfNull(targets);
        var tables = new List<IRenderable> { Table("Summary", ReportContent.Summary(results)) };
        if (capacities.Count > 0)
        {
            tables.Add(Table("Capacity", CapacityReport.Table(capacities)));
        }

        if (targets.Count > 0)
        {
            tables.Add(Table("Targets", new ReportTable(
                ["Verdict", "Target", "Measured"],
                3,
                [.. targets.Select(verdict => (IReadOnlyList<string>)[verdict.Verdict, verdict.Target, verdict.Measured])])));
        }

        return tables;
    }

    /// <summary>One report table as a Spectre.Console table, figures right-aligned, every cell escaped.</summary>
    public static Table Table(string title, ReportTable report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var table = new Table { Title = new TableTitle(Markup.Escape(title)), Border = TableBorder.Rounded };
        for (var column = 0; column < report.Columns.Count; column++)
        {
            table.AddColumn(new TableColumn(Markup.Escape(report.Columns[column])) { Alignment = report.IsNumeric(column) ? Justify.Right : Justify.Left });
        }

        foreach (var row in report.Rows)
        {
            table.AddRow([.. row.Select(cell => new Text(cell))]);
        }

        return table;
    }
}
