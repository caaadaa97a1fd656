using System.Xml.Linq;
using static WebSerialization.Load.Tests.FormatChartsTests;

namespace WebSerialization.Load.Tests;

/// <summary>The reports of a run with <c>--repeat 3</c>: the summary's medians and spread, and every run in the scenario files.</summary>
public class RepeatedReportTests
{
    private static readonly IReadOnlyList<ScenarioResult> Results = SampleRun.Repeated();

    [Fact]
    public void SummaryHasRunsAndP50RangeColumnsOnlyWhenAScenarioRanMoreThanOnce()
    {
        var once = ReportContent.Summary(SampleRun.Results()).Columns;
        Assert.DoesNotContain("Runs", once);
        Assert.DoesNotContain("p50 range ms", once);
        Assert.Equal(["Scenario", "Format", "Copies", "Runs", "OK", "Failed", "Response MB", "TTFB p50 ms", "p50 ms", "p50 range ms", "p95 ms"], ReportContent.Summary(Results).Columns.Take(11));
    }

    [Fact]
    public void SummaryRowShowsTheMediansOfTheRunsAndTheirP50Range()
    {
        var row = MarkdownReportTests.SummaryRows(Summary()).Single(row => row[0] == "download-binary-1000000" && row[2] == "1");

        // Format, copies, runs, OK (all runs), failed, response MB, TTFB p50, p50, p50 range, p95, p99, MB/s, allocated MB per
        // request, server CPU (not measured here), gen2, peak working set, seed.
        Assert.Equal(["binary", "1", "3", "300", "0", "20.00", "7", "67", "61-91", "127", "133", "1000.0", "0.800", "-", "1", "340.0 (+40)", "88.55", "983"], row[1..]);
    }

    [Fact]
    public void SummaryOneRowPerScenarioAndCopiesAndExplainsTheAggregation()
    {
        var summary = Summary();
        Assert.Equal(3, MarkdownReportTests.SummaryRows(summary).Length);
        MarkdownReportTests.ContainsAll(summary, "the median of the runs' own figures", "3 runs of every scenario and copies, interleaved", "each on a fresh server process");
    }

    [Fact]
    public void PlanSaysWhenTheRunsShareOneServer()
    {
        var shared = SampleRun.RepeatedDescription with { Options = SampleRun.RepeatedDescription.Options with { SharedServer = true } };
        Assert.Contains("all on the same server process", shared.Plan, StringComparison.Ordinal);
        Assert.DoesNotContain("runs of every scenario", SampleRun.Description.Plan, StringComparison.Ordinal);
    }

    [Fact]
    public void ScenarioReportHasARowPerRunThenTheSummaryRow()
    {
        var table = ReportContent.Repetitions(Binary());
        Assert.Equal(["1", "2", "3", "all runs"], table.Rows.Select(row => row[0]));
        Assert.Equal(["61", "91", "67", "67"], table.Rows.Select(row => row[table.Columns.ToList().IndexOf("p50 ms")]));
    }

    [Fact]
    public void ScenarioMarkdownHasEveryRunsFigures()
    {
        var markdown = MarkdownReport.Scenario(Binary(), SampleRun.RepeatedDescription);
        Assert.Contains("3 runs, each on a fresh server process.", markdown, StringComparison.Ordinal);
        Assert.Contains("Their p50 ranged 61.0-91.0 ms.", markdown, StringComparison.Ordinal);
        Assert.Equal(["## Run 1", "## Run 2", "## Run 3"], markdown.Split('\n').Where(line => line.StartsWith("## ", StringComparison.Ordinal)));
        Assert.Equal(3, markdown.Split('\n').Count(line => line.StartsWith("| Time to last byte (latency) |", StringComparison.Ordinal)));
    }

    [Fact]
    public void ScenarioMarkdownOfASingleRunHasNoRunHeadings()
    {
        var once = RepeatedScenario.Group(SampleRun.Results()).First();
        Assert.DoesNotContain("## Run", MarkdownReport.Scenario(once, SampleRun.Description), StringComparison.Ordinal);
    }

    [Fact]
    public void CsvSaysWhichRunEachSampleCameFrom()
    {
        var lines = CsvReport.Samples(Binary()).TrimEnd().Split('\n');
        Assert.StartsWith("repetition,copy,", lines[0], StringComparison.Ordinal);
        Assert.Equal([(1, 100), (2, 100), (3, 100)], lines.Skip(1).GroupBy(line => int.Parse(line.Split(',')[0], System.Globalization.CultureInfo.InvariantCulture)).Select(group => (group.Key, group.Count())));
    }

    [Fact]
    public void HtmlShowsTheSummaryOfTheMarkdownAndASectionPerScenarioWithEveryRun()
    {
        var page = HtmlReportTests.Page(HtmlReportTests.Render(Results, SampleRun.RepeatedDescription));
        var table = page.Descendants("h2").Single(heading => heading.Value == "Summary").ElementsAfterSelf("table").First();
        Assert.Equal(MarkdownReportTests.SummaryRows(Summary()), table.Element("tbody")!.Elements("tr").Select(row => row.Elements("td").Select(cell => cell.Value).ToArray()));
        var section = page.Descendants("section").Single(section => (string?)section.Attribute("id") == "download-binary-1000000-x1");
        Assert.Equal(["Run 1", "Run 2", "Run 3"], section.Elements("h4").Select(heading => heading.Value));
        Assert.Equal(["1", "2", "3", "all runs"], section.Elements("table").First().Element("tbody")!.Elements("tr").Select(row => row.Elements("td").First().Value));
    }

    [Fact]
    public void LatencyChartDrawsTheMedianP50AndTheRunsRangeAsAWhisker()
    {
        var svg = XElement.Parse(FormatChartsTests.Chart(FormatCharts.LatencyFileName, Results));
        var panel = svg.Elements(Svg + "g").First(group => (string?)group.Attribute("class") == "panel");
        var binary = panel.Elements(Svg + "rect").Single(rect => rect.Element(Svg + "title")!.Value.StartsWith("binary", StringComparison.Ordinal));

        Assert.Equal("binary: p50 67 (61-91), p95 127, p99 133 ms", binary.Element(Svg + "title")!.Value);

        // The panel's axis runs 0 to 600 ms (JSON's p99, 511 ms) over 400 px from x = 120: 61 ms at 160.67 px, 91 ms at 180.67 px.
        var whisker = panel.Elements(Svg + "g").Single(group => (string?)group.Attribute("class") == "range" && group.Element(Svg + "title")!.Value.StartsWith("binary", StringComparison.Ordinal));
        var line = whisker.Elements(Svg + "line").First();
        Precision.AssertWithin([160.67, 180.67], [Precision.Number(line.Attribute("x1")!.Value), Precision.Number(line.Attribute("x2")!.Value)]);
        Assert.Contains("p50 range of the runs", svg.Descendants(Svg + "text").Select(text => text.Value));
    }

    private static string Summary() => MarkdownReportTests.Summary(SampleRun.RepeatedDescription, Results);

    private static RepeatedScenario Binary() => RepeatedScenario.Group(Results).Single(scenario => scenario.ReportName == "download-binary-1000000-x1");
}
