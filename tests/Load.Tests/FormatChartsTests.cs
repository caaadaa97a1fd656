using System.Xml;
using System.Xml.Linq;

namespace WebSerialization.Load.Tests;

public class FormatChartsTests
{
    internal static readonly XNamespace Svg = "http://www.w3.org/2000/svg";
    private static readonly string[] FormatKeys = [.. WireFormat.All.Select(format => format.Key)];

    [Theory]
    [InlineData(FormatCharts.SizesFileName)]
    [InlineData(FormatCharts.LatencyFileName)]
    public void WritesAWellFormedSvgDocument(string fileName)
    {
        var svg = Parse(Chart(fileName, SampleRun.Results()));
        Assert.Equal(Svg + "svg", svg.Name);
        Assert.Equal(svg.Attribute("height")!.Value, svg.Attribute("viewBox")!.Value.Split(' ')[3]);
        Assert.NotEmpty(svg.Element(Svg + "title")!.Value);
    }

    [Theory]
    [InlineData(FormatCharts.SizesFileName, new[] { "10,000 members", "1,000,000 members" })]
    [InlineData(FormatCharts.LatencyFileName, new[] { "download, 10,000 members, 1 copy", "download, 1,000,000 members, 4 copies", "upload, 10,000 members, 1 copy" })]
    public void DrawsOnePanelPerGroupOfScenarios(string fileName, string[] titles) => Assert.Equal(titles, Panels(fileName).Select(Title));

    [Theory]
    [InlineData(FormatCharts.SizesFileName)]
    [InlineData(FormatCharts.LatencyFileName)]
    public void DrawsOneBarPerFormatInEachDownloadPanel(string fileName) =>
        Assert.All(Panels(fileName).Where(panel => !Title(panel).StartsWith("upload", StringComparison.Ordinal)), panel => Assert.Equal(FormatKeys, Bars(panel).Select(bar => bar.Label)));

    [Fact]
    public void SizesChartWritesEachFormatsSizeAndScalesItsBars()
    {
        var small = Bars(Panels(FormatCharts.SizesFileName)[0]);
        Assert.Equal(["1.00 MB", "0.50 MB", "0.25 MB", "0.13 MB"], small.Select(bar => bar.ValueText));
        Assert.Equal([400.0, 200.0, 100.0, 50.0], small.Select(bar => bar.Width));
    }

    [Fact]
    public void LatencyChartWritesP50P95AndP99AndMarksTheTailBeyondTheBar()
    {
        var json = Bars(Panels(FormatCharts.LatencyFileName)[0])[0];

        Assert.Equal("p50 40, p95 76, p99 79 ms", json.ValueText);

        // On the 0 to 80 ms axis of 400 px from x = 120: p50 at 200 px, p95 (76 ms) at 380 px, p99 (79.2 ms) at 396 px.
        Precision.AssertWithin([200], [json.Width]);
        Precision.AssertWithin([120.0 + 380, 120.0 + 396], json.MarkPositions);
    }

    [Fact]
    public void LeavesOutAChartWithNothingToShow()
    {
        var uploadOnly = SampleRun.Results().Where(result => result.Scenario.Subject!.Operation != ScenarioOperation.Download).ToArray();
        Assert.Null(FormatCharts.Sizes(uploadOnly));
        Assert.NotNull(FormatCharts.Latency(uploadOnly));
        Assert.Empty(FormatCharts.For([.. uploadOnly.Where(result => result.Outcome != ScenarioOutcome.Ran)]));
    }

    [Fact]
    public void EscapesTheTextItDraws()
    {
        const string hostile = "<script>alert(1)</script>";
        var svgText = Chart(FormatCharts.LatencyFileName, SampleRun.Results(formatKeyPrefix: hostile));
        Assert.DoesNotContain("<script", svgText, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("&lt;script&gt;", svgText, StringComparison.Ordinal);
        Assert.Contains(hostile + "json", Bars(Panels(Parse(svgText))[0]).Select(bar => bar.Label));
    }

    [Theory]
    [InlineData(79.2, 20, 80)]
    [InlineData(7920, 2000, 8000)]
    [InlineData(1, 0.2, 1)]
    [InlineData(0.131, 0.05, 0.15)]
    [InlineData(0, 0.2, 1)]
    [InlineData(double.NaN, 0.2, 1)]
    public void AxisEndsAtARoundNumberAtOrAboveTheLargestValue(double largest, double step, double end)
    {
        var axis = BarChart.Axis(largest);
        Assert.Equal(step, axis.Step, 1e-12);
        Assert.Equal(end, axis.End, 1e-12);
    }

    internal static string Chart(string fileName, IReadOnlyList<ScenarioResult> results) =>
        FormatCharts.For(results).Single(chart => chart.FileName == fileName).ToSvg().ToString();

    // XmlReader with its defaults: no DTD, every character checked, so a well-formedness error throws.
    internal static XElement Parse(string xml)
    {
        using var reader = XmlReader.Create(new StringReader(xml));
        return XElement.Load(reader);
    }

    private static XElement[] Panels(string fileName) => Panels(Parse(Chart(fileName, SampleRun.Results())));

    private static XElement[] Panels(XElement svg) => [.. svg.Elements(Svg + "g").Where(group => (string?)group.Attribute("class") == "panel")];

    private static string Title(XElement panel) => panel.Elements(Svg + "text").First().Value;

    // A bar's rect, its label (the text before it), its figures (the first text after it) and the marks across it.
    private static DrawnBar[] Bars(XElement panel) =>
    [
        .. panel.Elements(Svg + "rect").Where(rect => (string?)rect.Attribute("class") == "bar").Select(rect => new DrawnBar(
            rect.ElementsBeforeSelf(Svg + "text").Last().Value,
            double.Parse(rect.Attribute("width")!.Value, CultureInfo.InvariantCulture),
            rect.ElementsAfterSelf(Svg + "text").First().Value,
            [
                .. rect.ElementsAfterSelf().TakeWhile(element => element.Name != Svg + "text")
                    .Where(element => (string?)element.Attribute("class") == "mark")
                    .Select(mark => double.Parse(mark.Attribute("x1")!.Value, CultureInfo.InvariantCulture)),
            ])),
    ];

    private sealed record DrawnBar(string Label, double Width, string ValueText, double[] MarkPositions);
}
