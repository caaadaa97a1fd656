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
        dotnet_process_memory_working_set_bytes{otel_scope_name="System.Runtime"} 9.6514048E+07
        webserialization_response_body_written_bytes_total{otel_scope_name="WebSerialization.Api",format="msgpack"} 7847
        webserialization_response_body_written_bytes_total{otel_scope_name="WebSerialization.Api",format="text/plain"} 21491
        """;

    [Fact]
    public void ReadsTheStandardRuntimeMetricsAndOurBodyBytesFromPrometheusText()
    {
        var metrics = ServerMetrics.Parse(Scrape);

        Assert.Equal(12_814_440, metrics.AllocatedBytes);
        Assert.Equal(96_514_048, metrics.WorkingSetBytes);
        Assert.Equal((12, 1, 3), (metrics.CollectionsOf("gen0"), metrics.CollectionsOf("gen1"), metrics.CollectionsOf("gen2")));
        Assert.Equal(7847, metrics.BodyBytesByFormat["msgpack"]);
    }

    [Fact]
    public void RefusesAScrapeWithoutTheAllocationCounter()
    {
        Assert.Throws<FormatException>(() => ServerMetrics.Parse(Scrape.Replace("dotnet_gc_heap_total_allocated_bytes_total{", "other{", StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData(1_000_000, 1_040_000, false)]
    [InlineData(1_000_000, 1_060_000, true)]
    [InlineData(1_000_000, 940_000, true)]
    public void SaysWhenTheStandardCounterIsMoreThanFivePercentFromThePreciseOne(long precise, long standard, bool disagree)
    {
        var cost = new ServerCost(10, precise, 0, 0, 0, 0, 0, 0) { Metrics = new ServerMetricsCost(standard, 0, 0, 0, 0) };

        Assert.Equal(disagree, cost.MetricsDisagree);
        Assert.Equal(standard / 10.0, cost.MetricsAllocatedBytesPerRequest);
    }

    [Fact]
    public void SubtractsTheScrapesFromTheWindow()
    {
        var before = ServerMetrics.Parse(Scrape);
        var after = before with { AllocatedBytes = before.AllocatedBytes + 1_000_000, Collections = new Dictionary<string, long> { ["gen0"] = 14, ["gen1"] = 1, ["gen2"] = 4 } };

        var cost = ServerMetricsCost.Between(before, after, scrapeBytes: 30_000, otherReadBytes: 5_000);

        Assert.Equal(965_000, cost.AllocatedBytes);
        Assert.Equal((2, 0, 1), (cost.Gen0Collections, cost.Gen1Collections, cost.Gen2Collections));
    }
}
