using Spectre.Console;
using Spectre.Console.Rendering;

namespace WebSerialization.Load.Reports;

/// <summary>The end of a run on a terminal: the columns a reader compares, the capacity table and the judged targets as
/// Spectre.Console tables, built from the same <see cref="ReportContent"/> as the Markdown and HTML reports, which keep
/// every column. Not on a terminal (CI, a pipe) the Markdown summary is printed instead, so logs stay plain text.</summary>
public static class ConsoleSummary
{
    /// <summary>What to write, in order: the summary's compared columns (<see cref="ReportContent.ScreenSummary"/>), the capacity
    /// search's table when there was one, the targets this run judged, and one line for those it did not.</summary>
    public static IReadOnlyList<IRenderable> Render(IReadOnlyList<ScenarioResult> results, IReadOnlyList<CapacityResult> capacities, IReadOnlyList<TargetVerdict> targets)
    {
        var judged = targets.Where(verdict => verdict.Verdict != TargetVerdict.NotRun).ToArray();
        return
        [
            Table("Summary", ReportContent.ScreenSummary(results)),
            .. capacities.Count > 0 ? [Table("Capacity", CapacityReport.Table(capacities))] : Array.Empty<IRenderable>(),
            .. judged.Length > 0 ? [Table("Targets", new ReportTable(["Verdict", "Target", "Measured"], 3, [.. judged.Select(verdict => (IReadOnlyList<string>)[verdict.Verdict, verdict.Target, verdict.Measured])]))] : Array.Empty<IRenderable>(),
            .. NotRunLine(targets) is { } line ? [new Text(line + Environment.NewLine)] : Array.Empty<IRenderable>(),
        ];
    }

    /// <summary>One line for the targets the selection did not run (how many, and how to run them), or null when it ran every one.</summary>
    public static string? NotRunLine(IReadOnlyList<TargetVerdict> targets)
    {
        var notRun = targets.Count(verdict => verdict.Verdict == TargetVerdict.NotRun);
        return notRun == 0 ? null
            : $"{notRun} target{(notRun == 1 ? " was" : "s were")} not run by this selection: a run without --scenarios, --count and --copies (their defaults) runs {(notRun == 1 ? "it" : "them")}; the summary file lists {(notRun == 1 ? "it" : "each")}.";
    }

    /// <summary>One report table as a Spectre.Console table, figures right-aligned, every cell escaped.</summary>
    public static Table Table(string title, ReportTable report)
    {
        var table = new Table { Title = new TableTitle(Markup.Escape(title)), Border = TableBorder.Rounded };
        for (var column = 0; column < report.Columns.Count; column++)
            table.AddColumn(new TableColumn(Markup.Escape(report.Columns[column])) { Alignment = report.IsNumeric(column) ? Justify.Right : Justify.Left });

        foreach (var row in report.Rows)
            table.AddRow([.. row.Select(cell => new Text(cell))]);

        return table;
    }
}

/// <summary>The short lines printed while the run goes on.</summary>
public static class ConsoleReport
{
    public static string OneLine(ScenarioResult result)
    {
        var latency = result.Latency;
        var allocated = result.ServerCost?.AllocatedBytesPerRequest;
        var failure = result.FailureReasons.FirstOrDefault() is { Error: not null } reason ? $"; failures: {reason.Error} x{reason.Count}" : string.Empty;
        return string.Create(CultureInfo.InvariantCulture, $"{result.Succeeded.Count()} ok, {result.FailedCount} failed in {result.Elapsed.TotalSeconds:0.0} s; ")
            + $"p50 {Format(latency?.P50)} ms, p95 {Format(latency?.P95)} ms; {Format(result.MegabytesPerSecond)} MB/s; "
            + $"server {Format(allocated / Units.BytesPerMegabyte, "0.000")} MB allocated/request, "
            + $"{result.ServerCost?.Gen2Collections.ToString(CultureInfo.InvariantCulture) ?? "-"} gen2 GCs, "
            + $"peak working set {Format(result.PeakWorkingSet / Units.BytesPerMegabyte)} MB"
            + (result.Rate is not null ? string.Create(CultureInfo.InvariantCulture, $"; {result.LateRequests} late, {result.DroppedRequests} dropped") : string.Empty)
            + string.Concat(result.Steps.Select(step => $"; step {step.Name} p50 {Format(step.Latency?.P50)} ms{(step.Failed > 0 ? string.Create(CultureInfo.InvariantCulture, $", {step.Failed} failed") : string.Empty)}"))
            + failure;
    }

    public static string Format(double? value, string format = "0.0") =>
        value is { } number ? number.ToString(format, CultureInfo.InvariantCulture) : "-";

    /// <summary>How many times <paramref name="denominator"/> <paramref name="numerator"/> is, such as <c>1.25x</c>; <c>-</c> when either is unknown or the denominator is not positive.</summary>
    public static string Ratio(double? numerator, double? denominator) =>
        numerator is { } top && denominator is { } bottom && bottom > 0 ? string.Create(CultureInfo.InvariantCulture, $"{top / bottom:0.00}x") : "-";

    public static string Capitalized(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..];
}
