namespace WebSerialization.Load.Tests;

public class ServerMetricsTests
{
    private const string Scrape = """
        # TYPE dotnet_gc_collections_total counter
        dotnet_gc_collections_total{otel_scope_name="System.Runtime",gc_heap_generation="gen2"} 3
        dotnet_gc_collections_total{otel_scope_name="System.Runtime",gc_heap_generation="gen1"} 1
        dotnet_gc_collections_total{otel_scope_name="System.Runtime",gc_heap_generation="gen0"} 12
        # TYPE dotnet_gc_heap_total_allocated_bytes_total counter
        dotnet_gc_heap_total_allocated_bytes_total{otel_scope_name="System.Runtime"} 12814440
        dotnet_gc_pause_time_seconds_total{otel_scope_name="System.Runtime"} 0.0125
        dotnet_process_memory_working_set_bytes{otel_scope_name="System.Runtime"} 9.6514048E+07
        dotnet_process_cpu_count{otel_scope_name="System.Runtime"} 2
        http_server_request_duration_seconds_bucket{otel_scope_name="Microsoft.AspNetCore.Hosting",http_request_method="GET",http_response_status_code="200",http_route="/api/organization",le="0.005"} 4
        http_server_request_duration_seconds_count{otel_scope_name="Microsoft.AspNetCore.Hosting",format="json",http_request_method="GET",http_response_status_code="200",http_route="/api/organization"} 7
        http_server_request_duration_seconds_count{otel_scope_name="Microsoft.AspNetCore.Hosting",http_request_method="POST",http_response_status_code="200",http_route="/api/organization"} 3
        http_server_request_duration_seconds_count{otel_scope_name="Microsoft.AspNetCore.Hosting",http_request_method="GET",http_response_status_code="404"} 1
        http_server_request_duration_seconds_count{otel_scope_name="Microsoft.AspNetCore.Hosting",http_request_method="GET",http_response_status_code="200",http_route="/metrics"} 40
        webserialization_response_body_written_bytes_total{otel_scope_name="WebSerialization.Api",format="msgpack"} 7847
        webserialization_response_body_written_bytes_total{otel_scope_name="WebSerialization.Api",format="text/plain"} 21491
        """;

    [Fact]
    public void ReadsTheStandardRuntimeMetricsFromPrometheusTextAmongOthers()
    {
        var metrics = ServerMetrics.Parse(Scrape);

        Assert.Equal(12_814_440, metrics.AllocatedBytes);
        Assert.Equal(96_514_048, metrics.WorkingSetBytes);
        Assert.Equal((12, 1, 3), (metrics.CollectionsOf("gen0"), metrics.CollectionsOf("gen1"), metrics.CollectionsOf("gen2")));
        Assert.Equal(0.0125, metrics.PauseSeconds);
        Assert.Equal(2, metrics.ProcessorCount);
    }

    [Fact]
    public void CountsEveryRequestServedButTheScrapes() =>
        Assert.Equal(7 + 3 + 1, ServerMetrics.Parse(Scrape).RequestsServed);

    [Fact]
    public void RefusesAScrapeWithoutTheAllocationCounter() =>
        Assert.Throws<FormatException>(() => ServerMetrics.Parse(Scrape.Replace("dotnet_gc_heap_total_allocated_bytes_total{", "other{", StringComparison.Ordinal)));

    [Fact]
    public void SubtractsTheScrapesFromTheWindow()
    {
        var before = ServerMetrics.Parse(Scrape);
        var after = before with
        {
            AllocatedBytes = before.AllocatedBytes + 1_000_000,
            Collections = new Dictionary<string, long> { ["gen0"] = 14, ["gen1"] = 1, ["gen2"] = 4 },
            RequestsServed = before.RequestsServed + 10,
            PauseSeconds = before.PauseSeconds + 0.002,
        };

        var cost = ServerCost.Between(before, after, scrapes: 3, scrapeBytes: 30_000);

        Assert.Equal(910_000, cost.AllocatedBytes);
        Assert.Equal(10, cost.RequestsServed);
        Assert.Equal(91_000, cost.AllocatedBytesPerRequest);
        Assert.Equal((2, 0, 1), (cost.Gen0Collections, cost.Gen1Collections, cost.Gen2Collections));
        Assert.Equal(2, cost.PauseMilliseconds, 6);
    }
}
