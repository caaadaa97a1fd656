using Grpc.Core;
using Grpc.Net.Client;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.IntegrationTests;

// A server whose minimum rate is 1 MB/s, with a 2 s grace period and a 10 s deadline: Kestrel counts what the kernel's
// socket buffers took as read, which at the production rate delays a cut by long (docs/configuration.md, "Slow
// clients"). 200,000 members as JSON are far more than those buffers hold. 127.0.0.40 is a trusted proxy.
public sealed class StrictRateApiServer() : ApiServer(new()
{
    ["Organization:MemberCount"] = "200000",
    ["Limits:MinDataRateBytesPerSecond"] = "1048576",
    ["Limits:MinDataRateGraceSeconds"] = SlowReaderTests.GraceSeconds.ToString(CultureInfo.InvariantCulture),
    ["Limits:MaxHeavyRequestSeconds"] = SlowReaderTests.DeadlineSeconds.ToString(CultureInfo.InvariantCulture),
    ["Limits:TrustedProxies:0"] = SlowReaderTests.TrustedProxy,
});

public sealed class SlowReaderTests(StrictRateApiServer server) : IClassFixture<StrictRateApiServer>
{
    public const int GraceSeconds = 2;

    public const int DeadlineSeconds = 10;

    public const string TrustedProxy = "127.0.0.40";

    private const string Json = "/api/organization?format=json";

    [Fact]
    public async Task BehindATrustedProxyEachForwardedClientHasItsOwnShare()
    {
        var statuses = await SlowClients.ForwardedReadStatusesAsync(server.BaseAddress.Port, TrustedProxy, Json, "203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2");

        // One forwarded client is held to its share; another, through the same proxy, is not refused for it.
        Assert.Equal([200, 200, 429, 200], statuses);
    }

    [Fact]
    public async Task ReadersBelowTheMinimumRateAreCutAndTheirSlotsFreed()
    {
        const string Address = "127.0.0.30";

        // Before the request's deadline, and the log line names the rate: it is the rate that cut them.
        await SlowClients.AssertCutAndFreedAsync(
            server,
            Address,
            token => SlowClients.StartSlowReadAsync(server.BaseAddress.Port, Address, Json, token),
            200,
            Json,
            ("GET", "it read the answer below"),
            TimeSpan.FromSeconds(DeadlineSeconds));

        server.AssertNoErrorsLogged();
    }

    [Fact]
    public async Task GrpcCallsHoldSlotsAndSilentUploadsAreCutAfterTheGraceAsSlowBodiesAre()
    {
        using var channel = GrpcChannel.ForAddress(server.GrpcAddress, new GrpcChannelOptions { HttpHandler = LoopbackClients.Handler("127.0.0.50"), MaxReceiveMessageSize = null });
        var service = GrpcClients.Organization(channel);
        var started = Stopwatch.StartNew();

        // Two client-stream uploads that send nothing hold this client's share, as HTTP uploads do.
        using var first = channel.CreateCallInvoker().AsyncClientStreamingCall(GrpcClients.RawUpload, null, default);
        using var second = channel.CreateCallInvoker().AsyncClientStreamingCall(GrpcClients.RawUpload, null, default);
        await Task.Delay(500);
        await GrpcClients.AssertRefusedAsync(async () => await service.GetOrganizationAsync(new OrganizationRequest { Count = 10 }), StatusCode.ResourceExhausted);

        // Kestrel does not time an HTTP/2 request body that sends nothing at all, so the upload keeps the minimum rate
        // itself: after the grace, each call ends with DEADLINE_EXCEEDED naming the setting, well before the deadline.
        foreach (var call in new[] { first, second })
        {
            await GrpcClients.AssertRefusedAsync(async () => await call.ResponseAsync.WaitAsync(TimeSpan.FromSeconds(DeadlineSeconds)), StatusCode.DeadlineExceeded, "MinDataRateBytesPerSecond");
        }

        Assert.InRange(started.Elapsed, TimeSpan.FromSeconds(GraceSeconds), TimeSpan.FromSeconds(GraceSeconds + 5));
        Assert.Equal(2, server.AppEvents.Count(e => e.Message.StartsWith("gRPC upload cut: 0 bytes in ", StringComparison.Ordinal)));
        var answer = await service.GetOrganizationAsync(new OrganizationRequest { Count = 10 });
        Assert.Equal(10, answer.Members!.Count);
        server.AssertNoErrorsLogged();
    }

    [Fact]
    public async Task AHeavyRequestIsCutAtItsDeadlineWhateverItsRate()
    {
        const string Address = "127.0.0.31";
        using var client = LoopbackClients.From(Address, server.BaseAddress);
        var started = Stopwatch.StartNew();
        using var response = await client.GetAsync(Json, HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        await using var body = await response.Content.ReadAsStreamAsync();

        // 1.5 MB/s: above the minimum rate, but too slow to read 200,000 members of JSON within the 10 s deadline.
        var cut = await Assert.ThrowsAnyAsync<Exception>(() => SlowClients.ReadPacedAsync(body, 3 * 512 * 1024, started));
        Assert.True(cut is HttpRequestException or IOException, cut.ToString());
        Assert.InRange(started.Elapsed.TotalSeconds, DeadlineSeconds - 0.5, DeadlineSeconds + 5);
        Assert.Contains(server.AppEvents, e => SlowClients.IsCut(e, "GET", Address, "a heavy request may last"));

        using var next = await client.GetAsync("/api/organization?format=binary");
        Assert.Equal(HttpStatusCode.OK, next.StatusCode);
        server.AssertNoErrorsLogged();
    }
}
