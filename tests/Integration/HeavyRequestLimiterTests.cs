namespace WebSerialization.IntegrationTests;

/// <summary>Which downloads the heavy-request limiter holds back, on a server whose whole organization is small.</summary>
public sealed class HeavyRequestLimiterTests(SwitchedOffApiServer server) : IClassFixture<SwitchedOffApiServer>
{
    [Fact]
    public async Task DownloadsOfASmallOrganizationWithoutACountAreLightWhileTheClientsHeavyShareIsTaken()
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, 100);

        // Two half-sent uploads take this client's whole share of heavy requests (MaxHeavyRequestsPerClient, 2 by default).
        using var first = await RawSocketClient.SendHalfAnUploadAsync(server.BaseAddress.Port, "/api/organization", WireMediaTypes.Binary, payload);
        using var second = await RawSocketClient.SendHalfAnUploadAsync(server.BaseAddress.Port, "/api/organization", WireMediaTypes.Binary, payload);
        using (var third = await server.Client.PostAsync("/api/organization", new ByteArrayContent(payload) { Headers = { { "Content-Type", WireMediaTypes.Binary } } }))
        {
            Assert.Equal(HttpStatusCode.TooManyRequests, third.StatusCode);
        }

        // Without a count a download has every member, here 100: far below Limits:HeavyDownloadMembers.
        using var download = await server.Client.GetAsync("/api/organization?format=binary");
        Assert.Equal(HttpStatusCode.OK, download.StatusCode);
        Assert.Equal(payload, await download.Content.ReadAsByteArrayAsync());

        LoopbackClients.Reset(first);
        LoopbackClients.Reset(second);
    }
}
