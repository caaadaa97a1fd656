using System.Text.RegularExpressions;

namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class MetricsTests(ApiServer server, MetricsServer metricsServer) : IClassFixture<MetricsServer>
{
    [Fact]
    public async Task GivesThePageItsLinkWhenOn()
    {
        using var service = JsonDocument.Parse(await metricsServer.Client.GetStringAsync("/api/service"));

        Assert.Equal("/metrics", service.RootElement.GetProperty("links").GetProperty("metrics").GetString());
    }

    [Fact]
    public async Task IsOffByDefault()
    {
        using var response = await server.Client.GetAsync("/metrics");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task PublishesTheRuntimeAndAspNetCoreMetricsInPrometheusTextFormat()
    {
        using (var download = await metricsServer.Client.GetAsync("/api/organization?format=json&count=10"))
        {
            Assert.Equal(HttpStatusCode.OK, download.StatusCode);
        }

        var text = await metricsServer.ScrapeAsync();

        Assert.Contains("# TYPE dotnet_gc_heap_total_allocated_bytes_total counter", text, StringComparison.Ordinal);
        Assert.True(Sample(text, "dotnet_gc_heap_total_allocated_bytes_total") > 0);
        Assert.Matches(SampleLine("http_server_request_duration_seconds_count", "http_route=\"/api/organization\""), text);
    }

    // The access line's figures without the access line: a download counted by route, status and format, its body in
    // the size histogram and in its format's body bytes. Other tests of this class download too, so each moved by at
    // least this download.
    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task LabelsEachDownloadWithItsFormatAndCountsItsBodyBytes(WireFormat format)
    {
        var label = $"format=\"{format.Key}\"";
        var requests = label + ",http_request_method=\"GET\",http_response_status_code=\"200\",http_route=\"/api/organization\"";
        var before = await metricsServer.ScrapeAsync();

        var received = await metricsServer.DownloadAsync(format);

        var after = await metricsServer.ScrapeAsync();
        double? Moved(string name, string labels) => Sample(after, name, labels) - (Sample(before, name, labels) ?? 0);
        Assert.True(Moved("http_server_request_duration_seconds_count", requests) >= 1, $"{format.Key}: no duration recorded with its format.\n{after}");
        Assert.True(Moved("http_server_response_body_size_bytes_sum", label) >= received, $"{format.Key}: the body size histogram did not take the body.\n{after}");
        Assert.True(Moved("webserialization_response_body_written_bytes_total", label) >= received, $"{format.Key}: the body bytes counter did not take the body.\n{after}");
    }

    // The value of the first sample of a metric whose labels contain labelPart, or null when there is none.
    internal static double? Sample(string text, string name, string labelPart = "")
    {
        var match = SampleLine(name, labelPart).Match(text);
        return match.Success ? double.Parse(match.Groups["value"].Value, CultureInfo.InvariantCulture) : null;
    }

    private static Regex SampleLine(string name, string labelPart) =>
        new($"^{Regex.Escape(name)}\\{{[^}}\\n]*{Regex.Escape(labelPart)}[^}}\\n]*\\}} (?<value>[0-9.eE+-]+)", RegexOptions.Multiline);
}
