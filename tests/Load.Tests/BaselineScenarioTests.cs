using System.Xml.Linq;
using LoadOptions = WebSerialization.Load.Running.LoadOptions;

namespace WebSerialization.Load.Tests;

/// <summary>The MVC baseline's scenarios, and the reports that set them beside the streamed ones.</summary>
public class BaselineScenarioTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    [Theory]
    [InlineFormatData("download", "msgpack", "GET", "/api/mvc/organization?format=msgpack&count=10000", null)]
    [InlineFormatData("upload", "msgpack", "POST", "/api/mvc/organization", "application/x-msgpack")]
    [InlineFormatData("upload", "protobuf", "POST", "/api/mvc/organization", "application/protobuf")]
    public void SendsItsRequestsToTheMvcRouteInTheStockFormattersMediaTypes(string operation, WireFormat format, string method, string uri, string? contentType)
    {
        var upload = operation == ScenarioOperation.Upload.Key;
        var scenario = upload ? HttpScenarios.Upload(format, 10_000, baseline: true) : HttpScenarios.Download(format, 10_000, baseline: true);

        using var request = HttpScenarios.CreateRequest(scenario.Subject!, new byte[] { 1, 2, 3 });
        using var payloadDownload = PayloadCache.Download(HttpScenarios.PayloadFormat(scenario.Subject!), 10_000);

        Assert.Equal(method, request.Method.Method);
        Assert.Equal(uri, request.RequestUri!.OriginalString);
        Assert.Equal(contentType, request.Content?.Headers.ContentType?.MediaType);
        Assert.Equal($"/api/organization?format={format.Key}&count=10000", payloadDownload.RequestUri!.OriginalString);
    }

    [Fact]
    public void SwitchesTheBaselineOnInAServerTheRunnerStartsOnlyWhenABaselineScenarioRuns()
    {
        var streamed = LoadOptions.Parse(["--scenarios", "download"]);
        var both = LoadOptions.Parse(["--scenarios", "download,baseline"]);
        var url = LoadOptions.Parse(["--scenarios", "baseline", "--url", "http://127.0.0.1:5000"]);

        Assert.DoesNotContain(BaselineScenarios.ServerSwitch, BaselineScenarios.SwitchOn(streamed, ScenarioSelection.Select(streamed)).ServerEnvironment.Keys);
        Assert.Equal("true", BaselineScenarios.SwitchOn(both, ScenarioSelection.Select(both)).ServerEnvironment[BaselineScenarios.ServerSwitch]);
        Assert.Empty(BaselineScenarios.SwitchOn(url, ScenarioSelection.Select(url)).ServerEnvironment);
    }

    [Fact]
    public void ComparesEachStockScenarioWithTheStreamedOneOfTheSameFormatCountAndCopies()
    {
        var results = Results();
        var (streamed, stock) = (ScenarioFigures.Of(results[0]), ScenarioFigures.Of(results[1]));

        var table = BaselineComparison.Table(results)!;

        var msgpack = Assert.Single(table.Rows, row => row[0] == "download" && row[1] == "msgpack");
        Assert.Equal(
            [
                "download", "msgpack", "1,000,000", "1", Milliseconds(stock.P50), Milliseconds(streamed.P50), Milliseconds(stock.TimeToFirstByteP50),
                Milliseconds(streamed.TimeToFirstByteP50), "90.000", "0.250", "700 (+400)", "320 (+20)",
            ],
            msgpack);
        Assert.NotEqual(msgpack[4], msgpack[5]);
        var protobuf = Assert.Single(table.Rows, row => row[1] == "protobuf");
        Assert.Equal("-", protobuf[5]);
        Assert.Equal(table.Columns.Count, msgpack.Count);
    }

    [Fact]
    public void HasNoComparisonWithoutABaselineScenario()
    {
        Assert.Null(BaselineComparison.Table(SampleRun.Results()));
        Assert.Null(BaselineComparison.AllocationChart(SampleRun.Results()));
        Assert.DoesNotContain(BaselineComparison.Title, MarkdownReport.Summary(SampleRun.Description, SampleRun.Results(), [], null, []), StringComparison.Ordinal);
    }

    [Fact]
    public void ChartsAllocationPerRequestStockBesideStreamed()
    {
        var chart = FormatCharts.For(Results()).Single(chart => chart.FileName == BaselineComparison.AllocationFileName);

        var panel = Assert.Single(chart.Panels);
        Assert.Equal("download, 1,000,000 members, 1 copy", panel.Title);
        Assert.Equal(["msgpack stock", "msgpack streamed", "protobuf stock"], panel.Bars.Select(bar => bar.Label));
        Assert.Equal([90, 0.25, 80], panel.Bars.Select(bar => bar.Value));
        Assert.Equal(Svg + "svg", chart.ToSvg().Name);
    }

    [Fact]
    public void PutsTheComparisonInTheSummaryAndTheHtmlReport()
    {
        var results = Results();

        var summary = MarkdownReport.Summary(SampleRun.Description, results, DownloadTargets.Evaluate(results), null, FormatCharts.For(results));
        var page = HtmlReport.Render(SampleRun.Description, results, DownloadTargets.Evaluate(results), null, FormatCharts.For(results));

        Assert.Contains($"## {BaselineComparison.Title}", summary, StringComparison.Ordinal);
        Assert.Contains("| download | msgpack | 1,000,000 | 1 |", summary, StringComparison.Ordinal);
        Assert.Contains($"<h2>{BaselineComparison.Title}</h2>", page, StringComparison.Ordinal);
        Assert.Contains(BaselineComparison.AllocationFileName.Replace(".svg", string.Empty, StringComparison.Ordinal), summary, StringComparison.Ordinal);
    }

    [Fact]
    public void KeepsStockDownloadsOutOfTheStreamedDownloadTargets()
    {
        var streamedOnly = DownloadTargets.Evaluate(Results().Where(result => result.Scenario.Subject!.Baseline == false).ToArray());

        Assert.Equal(streamedOnly, DownloadTargets.Evaluate(Results()));
    }

    private static string Milliseconds(double? value) => value!.Value.ToString("0.0", CultureInfo.InvariantCulture);

    // A million-member MessagePack download, stock (p50 400 ms, first byte at 360 ms, 90 MB allocated per request, working
    // set 400 MB over idle) and streamed (100 ms, 1 ms, 0.25 MB, 20 MB over idle), and a stock protobuf download alone.
    private static IReadOnlyList<ScenarioResult> Results()
    {
        var msgpack = WireFormat.MessagePack;
        return
        [
            Download(HttpScenarios.Download(msgpack, 1_000_000), 100, 1, 0.25, 320),
            Download(HttpScenarios.Download(msgpack, 1_000_000, baseline: true), 400, 360, 90, 700),
            Download(HttpScenarios.Download(WireFormat.Protobuf, 1_000_000, baseline: true), 300, 250, 80, 650),
        ];
    }

    private static ScenarioResult Download(LoadScenario scenario, double p50, double timeToFirstByte, double allocatedMegabytes, long peakMegabytes)
    {
        var ran = SampleRun.Ran(scenario, 1, 80, p50);
        return ran with
        {
            Samples = [.. ran.Samples.Select(sample => sample with { TimeToFirstByte = TimeSpan.FromMilliseconds(timeToFirstByte) })],
            ServerCost = new ServerCost(100, (long)(100 * allocatedMegabytes * Units.BytesPerMegabyte), 0, 0, 1, 1, 1, 1),
            PeakWorkingSet = peakMegabytes << 20,
        };
    }
}
