using System.Xml.Linq;
using static WebSerialization.Load.Tests.FormatChartsTests;

namespace WebSerialization.Load.Tests;

public class HtmlReportTests
{
    private static readonly XElement Sample = Page(Render(SampleRun.Results()));

    [Fact]
    public void WritesAWellFormedPageWithAnHtmlDoctype()
    {
        var page = Render(SampleRun.Results());
        Assert.StartsWith("<!DOCTYPE html>\n<html lang=\"en\">", page, StringComparison.Ordinal);
        Assert.Equal("html", Page(page).Name.LocalName);
    }

    [Fact]
    public void NeedsNothingFromOutsideThePage()
    {
        Assert.DoesNotContain(Sample.Descendants(), element => element.Name.LocalName is "script" or "link" or "img" or "iframe" or "object");
        Assert.Empty(Sample.Descendants().Attributes("src"));

        // Links point at the report files beside the page, nowhere else.
        Assert.All(Sample.Descendants("a").Select(link => link.Attribute("href")!.Value), href => Assert.Matches("^[a-z0-9-]+\\.(md|csv)$", href));
    }

    [Fact]
    public void ClosesEveryElementThatHtmlDoesNotSelfClose() =>
        Assert.DoesNotContain(Sample.DescendantsAndSelf(), element => element.Name.Namespace == XNamespace.None && element.IsEmpty && element.Name.LocalName != "meta");

    [Fact]
    public void SummaryTableHasTheRowsOfTheMarkdownSummary()
    {
        var markdown = MarkdownReportTests.Summary();
        var table = Sample.Descendants("h2").Single(heading => heading.Value == "Summary").ElementsAfterSelf("table").First();
        Assert.Equal(MarkdownReportTests.SummaryRows(markdown)[0].Length, table.Element("thead")!.Descendants("th").Count());
        Assert.Equal(MarkdownReportTests.SummaryRows(markdown), table.Element("tbody")!.Elements("tr").Select(row => row.Elements("td").Select(cell => cell.Value).ToArray()));
    }

    [Fact]
    public void DescribesTheRun()
    {
        var facts = Sample.Descendants("dl").Single().Elements("dd").Select(fact => fact.Value.Trim()).ToArray();
        Assert.Contains("2026-11-21 11:57:00 UTC", facts);
        Assert.Contains(SampleRun.Description.CommandLine, facts);
        Assert.Contains(facts, fact => fact.StartsWith(SampleRun.Description.Machine, StringComparison.Ordinal));
        Assert.Contains(SampleRun.Description.Plan, facts);
    }

    [Fact]
    public void EmbedsBothChartsInlineWithABarPerFormat()
    {
        var charts = Sample.Descendants(Svg + "svg").ToArray();
        Assert.Equal(["Response size per format (downloads)", "Latency per format: time to last byte, p50 with p95 and p99 marks"], charts.Select(chart => chart.Element(Svg + "title")!.Value));
        Assert.Equal(8, charts[0].Descendants(Svg + "rect").Count(rect => (string?)rect.Attribute("class") == "bar"));
        Assert.Equal(9, charts[1].Descendants(Svg + "rect").Count(rect => (string?)rect.Attribute("class") == "bar"));
    }

    [Fact]
    public void MarksEachTargetWithItsVerdict()
    {
        var results = SampleRun.Results();
        var verdicts = Page(Render(results)).Descendants("td").Where(cell => (string?)cell.Attribute("class") is "pass" or "miss" or "not-run").Select(cell => cell.Value);
        Assert.Equal(DownloadTargets.Evaluate(results).Select(target => target.Verdict), verdicts);
    }

    [Fact]
    public void HasASectionPerScenarioThatRanWithItsFiles()
    {
        var results = SampleRun.Results();
        var sections = Page(Render(results)).Descendants("section").Where(section => section.Attribute("id") is not null).ToArray();

        Assert.Equal(results.Where(result => result.Outcome == ScenarioOutcome.Ran).Select(result => result.ReportName), sections.Select(section => section.Attribute("id")!.Value));
        var upload = sections.Single(section => section.Attribute("id")!.Value == "upload-binary-10000-x1");
        Assert.Equal(["upload-binary-10000-x1.md", "upload-binary-10000-x1.csv"], upload.Descendants("a").Select(link => link.Value));
        Assert.Contains("1 x 500 Internal Server Error", upload.Descendants("li").Select(item => item.Value));
        Assert.Contains("100 succeeded, 1 failed", upload.Descendants("td").Select(cell => cell.Value));
    }

    [Fact]
    public void ListsSkippedAndFailedScenarios()
    {
        var items = Sample.Descendants("li").Select(item => item.Value).ToArray();
        Assert.Contains("convert-json-to-protobuf-10000-x1: 404 Not Found", items);
        Assert.Contains("convert-json-to-binary-10000-x1: the server exited with code 137", items);
    }

    [Fact]
    public void EscapesEveryTextItShows()
    {
        const string hostile = "<script>alert(1)</script>";
        var results = SampleRun.Results(formatKeyPrefix: hostile).Append(new ScenarioResult(SampleRun.Results()[0].Scenario, 1, ScenarioOutcome.CouldNotRun, "\"><script>alert(2)</script>&amp;")).ToArray();
        var run = SampleRun.Description with { Server = "<img src=x onerror=alert(3)>", CommandLine = "--scenarios '</code><script>alert(4)</script>'" };

        var page = HtmlReport.Render(run, results, DownloadTargets.Evaluate(results), ending: "</p><script>alert(5)</script>", FormatCharts.For(results));

        Assert.DoesNotContain("<script", page, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<img", page, StringComparison.OrdinalIgnoreCase);
        MarkdownReportTests.ContainsAll(Page(page).Value, "\"><script>alert(2)</script>&amp;", "<img src=x onerror=alert(3)>", "</code><script>alert(4)</script>", "</p><script>alert(5)</script>", $"download-{hostile}json-10000");
    }

    [Fact]
    public void WritesAControlCharacterInAnErrorAsAReference()
    {
        var results = SampleRun.Results().Append(new ScenarioResult(SampleRun.Results()[0].Scenario, 1, ScenarioOutcome.CouldNotRun, "bell\u0007")).ToArray();
        Assert.Contains("bell&#x7;", Render(results), StringComparison.Ordinal);
    }

    internal static string Render(IReadOnlyList<ScenarioResult> results, RunDescription? run = null) =>
        HtmlReport.Render(run ?? SampleRun.Description, results, DownloadTargets.Evaluate(results), ending: null, FormatCharts.For(results));

    // The page is also well-formed XML (the doctype aside): XmlReader with its defaults checks every character.
    internal static XElement Page(string page) => Parse(page[page.IndexOf('\n', StringComparison.Ordinal)..]);
}
