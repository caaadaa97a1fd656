using System.Text;

namespace WebSerialization.Load.Reports;

/// <summary>The Markdown reports: one per scenario with every statistic, and the run's summary with the targets.</summary>
public static class MarkdownReport
{
    public const string SummaryFileName = "summary.md";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Writes <see cref="Scenario"/> to <c>{report name}.md</c>.</summary>
    public static Task WriteScenarioAsync(RepeatedScenario scenario, RunDescription run, string directory, CancellationToken cancellationToken) =>
        File.WriteAllTextAsync(Path.Combine(directory, scenario.ReportName + ".md"), Scenario(scenario, run), cancellationToken);

    /// <summary>A scenario's report: every repetition's figures, after a table of them all when there are several.</summary>
    public static string Scenario(RepeatedScenario scenario, RunDescription run)
    {
        var md = new StringBuilder();
        md.AppendLine(Invariant, $"# {scenario.ReportName}").AppendLine();
        if (scenario.IsRepeated)
        {
            md.AppendLine(Invariant, $"`{scenario.Scenario.Description}`: {ReportContent.RepetitionsIntro(scenario, run)}").AppendLine();
            md.Append(ReportContent.Repetitions(scenario).ToMarkdown());
        }

        foreach (var result in scenario.Repetitions)
        {
            if (scenario.IsRepeated)
            {
                md.AppendLine().AppendLine(Invariant, $"## Run {result.Repetition}");
                md.AppendLine().AppendLine(ReportContent.Conditions(result, run));
            }
            else
            {
                md.AppendLine(Invariant, $"`{scenario.Scenario.Description}`: {ReportContent.Conditions(result, run)}");
            }

            md.AppendLine();
            AppendRepetition(md, result);
            if (result.Steps.Count > 0)
            {
                md.AppendLine();
                md.Append(ReportContent.Steps(result).ToMarkdown());
            }
        }

        md.AppendLine().AppendLine(Invariant, $"Every sample: {scenario.ReportName}.csv{(scenario.IsRepeated ? " (its repetition column says which run)" : string.Empty)}. MB = 2^20 bytes.");
        return md.ToString();
    }

    /// <summary>The header lines every results file starts with: the command, the machine, other work, CPU speed and CPUs.</summary>
    public static void AppendRunFacts(StringBuilder md, RunDescription run)
    {
        md.AppendLine(Invariant, $"- Command: `{run.CommandLine}`");
        md.AppendLine(Invariant, $"- Machine: {run.Machine}");
        if (run.OtherWork is not null)
            md.AppendLine(Invariant, $"- Other work: {run.OtherWork}");

        if (run.CpuSpeed is not null)
            md.AppendLine(Invariant, $"- CPU speed: {run.CpuSpeed}");

        md.AppendLine(Invariant, $"- CPUs: {run.Cpus}");
    }

    /// <summary>The run's summary: one row per scenario, the <paramref name="charts"/> (SVG files beside it), the targets, what was
    /// skipped and what failed.</summary>
    /// <param name="linkHtml">Whether to link the run's report.html (which docs/results/ does not have).</param>
    public static string Summary(RunDescription run, IReadOnlyList<ScenarioResult> results, IReadOnlyList<TargetVerdict> targets, string? ending, IReadOnlyList<BarChart> charts, bool linkHtml = true)
    {
        var md = new StringBuilder();
        md.AppendLine(Invariant, $"# Load run {run.StartedAt:yyyy-MM-dd HH:mm} UTC, {run.Options.Mode}{(run.Options.Smoke ? " (smoke)" : string.Empty)}").AppendLine();
        AppendRunFacts(md, run);
        md.AppendLine(Invariant, $"- Server: {run.Server}");
        md.AppendLine(Invariant, $"- Plan: {run.Plan}");
        if (ending is not null)
            md.AppendLine(Invariant, $"- **{ending}**");

        md.AppendLine();
        md.Append(ReportContent.Summary(results).ToMarkdown());
        md.AppendLine().AppendLine(ReportContent.Legend(results));
        md.AppendLine().AppendLine(SeedArticleFigures.Caption);
        if (BaselineComparison.Table(results) is { } baseline)
        {
            md.AppendLine().AppendLine(Invariant, $"## {BaselineComparison.Title}").AppendLine();
            md.Append(baseline.ToMarkdown());
            md.AppendLine().AppendLine(BaselineComparison.Legend);
        }

        if (charts.Count > 0)
        {
            md.AppendLine().AppendLine("## Plots");
            foreach (var chart in charts)
                md.AppendLine().AppendLine(Invariant, $"![{chart.Title}]({chart.FileName})");
        }

        if (linkHtml)
            md.AppendLine().AppendLine(Invariant, $"All of this, with every scenario's figures, on one page: [{HtmlReport.FileName}]({HtmlReport.FileName}).");

        md.AppendLine().AppendLine("## Targets").AppendLine();
        md.Append(new ReportTable(["Target", "Measured", "Verdict"], 3, [.. targets.Select(verdict => (IReadOnlyList<string>)[verdict.Target, verdict.Measured, $"**{verdict.Verdict}**"])]).ToMarkdown());

        AppendSection(md, "Skipped (endpoint not on this server)", ReportContent.Skipped(results));
        AppendSection(md, "Failures", ReportContent.Failures(results));
        return md.ToString();
    }

    private static void AppendRepetition(StringBuilder md, ScenarioResult result)
    {
        if (result.Note is not null)
            md.AppendLine(Invariant, $"**{result.Outcome}**: {result.Note}").AppendLine();

        if (result.Server is not null)
            md.AppendLine(Invariant, $"Server: {result.Server}.").AppendLine();

        md.Append(ReportContent.Distributions(result).ToMarkdown());
        md.AppendLine();
        md.Append(ReportContent.Facts(result).ToMarkdown());
        var failures = ReportContent.FailureCounts(result);
        if (failures.Count > 0)
        {
            md.AppendLine().AppendLine("Failures:");
            AppendList(md, failures);
        }
    }

    private static void AppendSection(StringBuilder md, string title, IReadOnlyList<string> lines)
    {
        if (lines.Count > 0)
        {
            md.AppendLine().AppendLine(Invariant, $"## {title}").AppendLine();
            AppendList(md, lines);
        }
    }

    private static void AppendList(StringBuilder md, IEnumerable<string> lines)
    {
        foreach (var line in lines)
            md.AppendLine(Invariant, $"- {line}");
    }
}
