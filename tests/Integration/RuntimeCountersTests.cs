using System.Net;
using System.Text.Json;

namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class RuntimeCountersTests(ApiServer server, RuntimeCountersServer countersServer) : IClassFixture<RuntimeCountersServer>
{
    private const string Path = "/diagnostics/runtime";

    [Fact]
    public async Task IsOffByDefault()
    {
        using var response = await server.Client.GetAsync(Path);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task ReturnsTheCountersWhenSwitchedOn()
    {
        // The server runs in this process: each counter lies between this process's own readings before and after.
        var pauseBefore = GC.GetTotalPauseDuration().TotalMilliseconds;
        var gen0Before = GC.CollectionCount(0);
        var gen2Before = GC.CollectionCount(2);
        using var first = await ReadCountersAsync();
        var pauseAfter = GC.GetTotalPauseDuration().TotalMilliseconds;

        var counters = first.RootElement;
        Assert.True(counters.GetProperty("totalAllocatedBytes").GetInt64() > 0);
        Assert.InRange(counters.GetProperty("gen0Collections").GetInt32(), gen0Before, GC.CollectionCount(0));
        Assert.InRange(counters.GetProperty("gen2Collections").GetInt32(), gen2Before, GC.CollectionCount(2));
        Assert.True(counters.GetProperty("gen0Collections").GetInt32() >= counters.GetProperty("gen1Collections").GetInt32());
        Assert.True(counters.GetProperty("gen1Collections").GetInt32() >= counters.GetProperty("gen2Collections").GetInt32());
        Assert.InRange(counters.GetProperty("totalPauseDurationMilliseconds").GetDouble(), pauseBefore, pauseAfter);
        Assert.InRange(counters.GetProperty("workingSetBytes").GetInt64(), 1, Environment.WorkingSet * 2);
        Assert.Equal(Environment.ProcessId, counters.GetProperty("processId").GetInt32());
        Assert.True(counters.GetProperty("isServerGC").ValueKind is JsonValueKind.True or JsonValueKind.False);
        Assert.Equal(Environment.ProcessorCount, counters.GetProperty("processorCount").GetInt32());
    }

    [Fact]
    public async Task CountsEveryRequestServedAndTheBytesItAllocated()
    {
        using var before = await ReadCountersAsync();
        using (var download = await countersServer.Client.GetAsync($"/api/organization?format=json&count={RuntimeCountersServer.MemberCount}"))
        {
            Assert.Equal(HttpStatusCode.OK, download.StatusCode);
        }

        using var after = await ReadCountersAsync();

        // The download and the first counters call both finished between the two readings.
        Assert.Equal(2, after.RootElement.GetProperty("requestsServed").GetInt64() - before.RootElement.GetProperty("requestsServed").GetInt64());
        Assert.True(after.RootElement.GetProperty("totalAllocatedBytes").GetInt64() > before.RootElement.GetProperty("totalAllocatedBytes").GetInt64());
    }

    private async Task<JsonDocument> ReadCountersAsync()
    {
        using var response = await countersServer.Client.GetAsync(Path);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync());
    }
}
