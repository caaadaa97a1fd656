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
        Assert.True(Sample(text, "dotnet_process_memory_working_set_bytes") > 0);
        Assert.Matches(SampleLine("dotnet_gc_collections_total", "gc_heap_generation=\"gen0\""), text);
        Assert.Matches(SampleLine("http_server_request_duration_seconds_count", "http_route=\"/api/organization\""), text);
    }

    [Theory]
    [InlineFormatData("json")]
    [InlineFormatData("msgpack")]
    [InlineFormatData("protobuf")]
    [InlineFormatData("binary")]
    public async Task CountsTheResponseBodyBytesOfEachFormat(WireFormat format)
    {
        var label = $"format=\"{format.Key}\"";
        var before = Sample(await metricsServer.ScrapeAsync(), "webserialization_response_body_written_bytes_total", label) ?? 0;

        var received = await metricsServer.DownloadAsync(format.Key);

        // Other tests of this class download too, so the counter moved by at least this body.
        var after = Sample(await metricsServer.ScrapeAsync(), "webserialization_response_body_written_bytes_total", label);
        Assert.NotNull(after);
        Assert.True(after - before >= received, $"{format.Key}: the counter moved by {after - before} bytes; the body had {received}.");
    }

    // The access line's figures without the access line: a download counted by route, status and format, its body in the size histogram.
    [Theory]
    [InlineFormatData("json")]
    [InlineFormatData("binary")]
    public async Task LabelsTheRequestDurationWithTheFormatAndRecordsTheBodySize(WireFormat format)
    {
        var key = format.Key;
        var requests = $"format=\"{key}\",http_request_method=\"GET\",http_response_status_code=\"200\",http_route=\"/api/organization\"";
        var before = Sample(await metricsServer.ScrapeAsync(), "http_server_request_duration_seconds_count", requests) ?? 0;
        var sizesBefore = Sample(await metricsServer.ScrapeAsync(), "http_server_response_body_size_bytes_sum", $"format=\"{key}\"") ?? 0;

        var received = await metricsServer.DownloadAsync(key);

        var text = await metricsServer.ScrapeAsync();
        Assert.True(Sample(text, "http_server_request_duration_seconds_count", requests) - before >= 1, $"{key}: no duration recorded with its format.\n{text}");
        Assert.True(Sample(text, "http_server_response_body_size_bytes_sum", $"format=\"{key}\"") - sizesBefore >= received, $"{key}: the body size histogram did not take the body.\n{text}");
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
