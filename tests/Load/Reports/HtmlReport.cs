using System.Text;
using System.Xml;
using System.Xml.Linq;

namespace WebSerialization.Load.Reports;

/// <summary>The run on one page, <c>report.html</c>: the summary, the charts, the targets and every scenario's figures. It is
/// self-contained (no script, no external style sheet, font or image; the charts are inline SVG), so it opens offline
/// and as a CI artifact. The page is built as an XML tree, so the XML writer escapes every text put into it. HTML
/// self-closes only void elements (<c>meta</c>): every other element gets content, if only an empty string, so that
/// it is written with an end tag.</summary>
public static class HtmlReport
{
    public const string FileName = "report.html";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    // In HTML a style element's content is raw text, so it must not hold '<', '>' or '&': the XML writer escapes them.
    private const string Style = """
        body { font-family: system-ui, sans-serif; margin: 1.5em 2em; color: #222; line-height: 1.4; }
        table { border-collapse: collapse; margin: 0.75em 0; font-size: 0.9em; }
        th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
        th { background: #f3f3f3; }
        td:first-child { white-space: nowrap; }
        .number { text-align: right; font-variant-numeric: tabular-nums; }
        td.number { white-space: nowrap; }
        dt { font-weight: bold; float: left; clear: left; width: 6em; }
        dd { margin: 0 0 0.3em 7em; }
        .pass { color: #08660f; font-weight: bold; }
        .miss { color: #b00020; font-weight: bold; }
        .not-run { color: #666; font-weight: bold; }
        .ending { font-weight: bold; color: #b00020; }
        .legend { color: #555; font-size: 0.9em; max-width: 60em; }
        svg { max-width: 100%; height: auto; display: block; margin: 1em 0; }
        section { border-top: 1px solid #ddd; margin-top: 1.5em; }
        """;

    /// <summary>The whole page, starting with its doctype.</summary>
    /// <param name="capacities">The capacity searches of a <c>--capacity</c> run, shown as their own table; none otherwise.</param>
    /// <param name="comparison">The section of <see cref="Cpus.CpuLayoutComparison"/> for a run under two CPU layouts, or of <see cref="ScaleOut.HAProxyComparison"/> for a --through-haproxy run; null otherwise.</param>
    public static string Render(RunDescription run, IReadOnlyList<ScenarioResult> results, IReadOnlyList<TargetVerdict> targets, string? ending, IReadOnlyList<BarChart> charts, IReadOnlyList<CapacityResult>? capacities = null,
        ReportSection? comparison = null)
    {
        var title = string.Create(Invariant, $"Load run {run.StartedAt:yyyy-MM-dd HH:mm} UTC{(run.Options.Smoke ? " (smoke)" : string.Empty)}");
        var scenarios = RepeatedScenario.Group(results).Where(scenario => scenario.Outcome == ScenarioOutcome.Ran).ToArray();

        // XElement leaves out null content: the parts this run has nothing for.
        var body = new XElement(
            "body",
            new XElement("h1", title),
            RunFacts(run),
            ending is null ? null : new XElement("p", new XAttribute("class", "ending"), ending),
            new XElement("h2", "Summary"),
            Table(ReportContent.Summary(results)),
            Legend(ReportContent.Legend(results)),
            Legend(SeedArticleFigures.Caption),
            BaselineComparison.Table(results) is { } baseline ? new[] { new XElement("h2", BaselineComparison.Title), Table(baseline), Legend(BaselineComparison.Legend) } : null,
            capacities is { Count: > 0 } ? new[] { new XElement("h2", "Capacity"), Legend(CapacityReport.Legend(run.Options)), Table(CapacityReport.Table(capacities)) } : null,
            comparison is null ? null : new[] { new XElement("h2", comparison.Title), Legend(comparison.Legend) }.Concat(comparison.Tables.Select(table => Table(table))),
            charts.Count > 0 ? charts.Select(chart => chart.ToSvg()).Prepend(new XElement("h2", "Plots")) : null,
            new XElement("h2", "Targets"),
            Table(new ReportTable(["Target", "Measured", "Verdict"], 3, [.. targets.Select(verdict => (IReadOnlyList<string>)[verdict.Target, verdict.Measured, verdict.Verdict])]), VerdictClass),
            Section("Skipped (endpoint not on this server)", ReportContent.Skipped(results)),
            Section("Failures", ReportContent.Failures(results)),
            scenarios.Length > 0 ? scenarios.Select(scenario => Scenario(scenario, run)).Prepend(new XElement("h2", "Scenarios")) : null);
        var html = new XElement(
            "html",
            new XAttribute("lang", "en"),
            new XElement(
                "head",
                new XElement("meta", new XAttribute("charset", "utf-8")),
                new XElement("meta", new XAttribute("name", "viewport"), new XAttribute("content", "width=device-width, initial-scale=1")),
                new XElement("title", title),
                new XElement("style", Style)),
            body);
        var page = new StringBuilder("<!DOCTYPE html>\n");

        // A control character from an error message would stop a checking writer; unchecked, it is written as a reference.
        using (var writer = XmlWriter.Create(page, new XmlWriterSettings { OmitXmlDeclaration = true, Indent = true, CheckCharacters = false }))
            html.WriteTo(writer);

        return page.AppendLine().ToString();
    }

    private static XElement RunFacts(RunDescription run) => new(
        "dl",
        Fact("Started", new XText(string.Create(Invariant, $"{run.StartedAt:yyyy-MM-dd HH:mm:ss} UTC"))),
        Fact("Command", new XElement("code", run.CommandLine)),
        Fact("Machine", new XText(run.Machine)),
        run.OtherWork is null ? [] : Fact("Other work", new XText(run.OtherWork)),
        run.CpuSpeed is null ? [] : Fact("CPU speed", new XText(run.CpuSpeed)),
        Fact("CPUs", new XText(run.Cpus)),
        Fact("Server", new XText(run.Server)),
        Fact("Plan", new XText(run.Plan)),
        Fact("Files", new XElement("a", new XAttribute("href", MarkdownReport.SummaryFileName), MarkdownReport.SummaryFileName), new XText(", and per scenario a Markdown file and a CSV of every sample")));

    private static XElement[] Fact(string name, params XNode[] value) => [new("dt", name), new("dd", value)];

    // A scenario's section: with several repetitions, the table of them all, then each one's figures under its own heading.
    private static XElement Scenario(RepeatedScenario scenario, RunDescription run)
    {
        var section = new XElement("section", new XAttribute("id", scenario.ReportName), new XElement("h3", scenario.ReportName));
        if (scenario.IsRepeated)
        {
            section.Add(
                new XElement("p", new XElement("code", scenario.Scenario.Description), ": " + ReportContent.RepetitionsIntro(scenario, run)),
                Table(ReportContent.Repetitions(scenario)));
        }

        foreach (var result in scenario.Repetitions)
        {
            if (scenario.IsRepeated)
                section.Add(new XElement("h4", string.Create(Invariant, $"Run {result.Repetition}")), new XElement("p", ReportContent.Conditions(result, run)));
            else
                section.Add(new XElement("p", new XElement("code", scenario.Scenario.Description), ": " + ReportContent.Conditions(result, run)));

            section.Add(Repetition(result));
            if (result.Steps.Count > 0)
                section.Add(Table(ReportContent.Steps(result)));
        }

        section.Add(new XElement(
            "p",
            "Files: ",
            new XElement("a", new XAttribute("href", scenario.ReportName + ".md"), scenario.ReportName + ".md"),
            scenario.IsRepeated ? ", every sample, with its run: " : ", every sample: ",
            new XElement("a", new XAttribute("href", scenario.ReportName + ".csv"), scenario.ReportName + ".csv"),
            ". MB = 2^20 bytes."));
        return section;
    }

    private static IEnumerable<XElement> Repetition(ScenarioResult result)
    {
        if (result.Note is not null)
            yield return new XElement("p", new XElement("strong", result.Outcome.ToString()), ": " + result.Note);

        if (result.Server is not null)
            yield return new XElement("p", $"Server: {result.Server}.");

        yield return Table(ReportContent.Distributions(result));
        yield return Table(ReportContent.Facts(result));
        var failures = ReportContent.FailureCounts(result);
        if (failures.Count > 0)
        {
            yield return new XElement("p", "Failures:");
            yield return List(failures);
        }
    }

    private static XElement Legend(string text) => new("p", new XAttribute("class", "legend"), text);

    private static XElement? Section(string title, IReadOnlyList<string> lines) =>
        lines.Count == 0 ? null : new XElement("section", new XElement("h2", title), List(lines));

    private static XElement List(IEnumerable<string> lines) => new("ul", lines.Select(line => new XElement("li", line)));

    private static XElement Table(ReportTable table, Func<string, string?>? cellClass = null)
    {
        XAttribute? Class(int column, string cell) =>
            table.IsNumeric(column) ? new XAttribute("class", "number") : cellClass?.Invoke(cell) is { } name ? new XAttribute("class", name) : null;

        return new XElement(
            "table",
            table.Columns.Any(column => column.Length > 0)
                ? new XElement("thead", new XElement("tr", table.Columns.Select((column, index) => new XElement("th", Class(index, string.Empty), column))))
                : null,
            new XElement("tbody", table.Rows.Select(row => new XElement("tr", row.Select((cell, index) => new XElement("td", Class(index, cell), cell))))));
    }

    private static string? VerdictClass(string cell) => cell switch
    {
        TargetVerdict.Pass => "pass",
        TargetVerdict.Miss => "miss",
        TargetVerdict.NotRun => "not-run",
        _ => null,
    };
}
