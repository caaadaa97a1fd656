using System.Text.RegularExpressions;

namespace WebSerialization.IntegrationTests;

// /metrics carries every figure the load runner reads of the server's cost (tests/Load/Server/ServerMetrics.cs):
// allocations, collections by generation, GC pauses, working set, processors, and the requests served with the
// scrapes on a route of their own, so that the runner can count the load's requests exactly.
[Collection(ApiCollection.Name)]
public sealed partial class LoadRunnerMetricsTests(MetricsServer server) : IClassFixture<MetricsServer>
{
    private static readonly TimeSpan SettleTime = TimeSpan.FromSeconds(5);

    [Fact]
    public async Task CountsADownloadAsOneRequestServedAndWhatItAllocated()
    {
        var before = await server.ScrapeAsync();
        Assert.NotEqual(0L, await server.DownloadAsync(WireFormat.Json));

        // The server counts a request when it records its duration, which may be a moment after the body's last byte:
        // the download's, and the first scrape's.
        var after = await server.ScrapeAsync();
        for (var waited = TimeSpan.Zero; (RequestsServed(after) == RequestsServed(before) || Scrapes(after) == Scrapes(before)) && waited < SettleTime; waited += TimeSpan.FromMilliseconds(50))
        {
            await Task.Delay(50);
            after = await server.ScrapeAsync();
        }

        Assert.Equal(1, RequestsServed(after) - RequestsServed(before));
        Assert.True(Scrapes(after) > Scrapes(before), "the scrapes are counted on their own route");
        Assert.True(MetricsTests.Sample(after, "dotnet_gc_heap_total_allocated_bytes_total") > MetricsTests.Sample(before, "dotnet_gc_heap_total_allocated_bytes_total"));
    }

    [Fact]
    public async Task PublishesTheCollectionsPausesWorkingSetAndProcessors()
    {
        var text = await server.ScrapeAsync();

        Assert.All(new[] { "gen0", "gen1", "gen2" }, generation =>
            Assert.NotNull(MetricsTests.Sample(text, "dotnet_gc_collections_total", $"gc_heap_generation=\"{generation}\"")));
        Assert.NotNull(MetricsTests.Sample(text, "dotnet_gc_pause_time_seconds_total"));
        Assert.True(MetricsTests.Sample(text, "dotnet_process_memory_working_set_bytes") > 0);
        Assert.Equal(Environment.ProcessorCount, MetricsTests.Sample(text, "dotnet_process_cpu_count"));
    }

    private static double Scrapes(string text) => MetricsTests.Sample(text, "http_server_request_duration_seconds_count", "http_route=\"/metrics\"") ?? 0;

    // What the runner counts: every request the server recorded, but the scrapes.
    private static double RequestsServed(string text) => RequestCounts().Matches(text)
        .Where(match => !match.Groups["labels"].Value.Contains("http_route=\"/metrics\"", StringComparison.Ordinal))
        .Sum(match => double.Parse(match.Groups["value"].Value, CultureInfo.InvariantCulture));

    [GeneratedRegex("^http_server_request_duration_seconds_count\\{(?<labels>[^}\\n]*)\\} (?<value>[0-9.eE+-]+)", RegexOptions.Multiline)]
    private static partial Regex RequestCounts();
}
