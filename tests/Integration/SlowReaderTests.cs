using Grpc.Core;
using Grpc.Net.Client;
using WebSerialization.Models.Grpc;

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
        using var slow = new CancellationTokenSource();
        var port = server.BaseAddress.Port;
        using var first = await SlowClientTests.StartSlowReadAsync(port, TrustedProxy, Json, slow.Token, forwardedFor: "203.0.113.1");
        using var second = await SlowClientTests.StartSlowReadAsync(port, TrustedProxy, Json, slow.Token, forwardedFor: "203.0.113.1");
        using var third = await SlowClientTests.StartSlowReadAsync(port, TrustedProxy, Json, slow.Token, forwardedFor: "203.0.113.1");
        using var other = await SlowClientTests.StartSlowReadAsync(port, TrustedProxy, Json, slow.Token, forwardedFor: "203.0.113.2");
        await slow.CancelAsync();

        // One forwarded client is held to its share; another, through the same proxy, is not refused for it.
        Assert.Equal([200, 200, 429, 200], new[] { first.Status, second.Status, third.Status, other.Status });
    }

    [Fact]
    public async Task ReadersBelowTheMinimumRateAreCutAndTheirSlotsFreed()
    {
        const string Address = "127.0.0.30";
        using var slow = new CancellationTokenSource();
        var started = Stopwatch.StartNew();
        using var first = await SlowClientTests.StartSlowReadAsync(server.BaseAddress.Port, Address, Json, slow.Token);
        using var second = await SlowClientTests.StartSlowReadAsync(server.BaseAddress.Port, Address, Json, slow.Token);
        try
        {
            Assert.Equal(200, first.Status);
            Assert.Equal(200, second.Status);
            using var client = LoopbackClients.From(Address, server.BaseAddress);
            using (var third = await client.GetAsync(Json, HttpCompletionOption.ResponseHeadersRead))
            {
                Assert.Equal(HttpStatusCode.TooManyRequests, third.StatusCode);
            }

            // Before the request's deadline, and the log line names the rate: it is the rate that cut them.
            await server.WaitForEventsAsync(
                e => SlowClientTests.IsCut(e, "GET", Address, "it read the answer below"),
                TimeSpan.FromSeconds(DeadlineSeconds) - started.Elapsed,
                "The slow readers were not both logged as cut in time.",
                count: 2);

            var again = await Task.WhenAll(Enumerable.Range(0, 2).Select(_ => client.GetAsync(Json, HttpCompletionOption.ResponseHeadersRead)));
            Assert.All(again, response => Assert.Equal(HttpStatusCode.OK, response.StatusCode));
            foreach (var response in again)
            {
                await (await response.Content.ReadAsStreamAsync()).CopyToAsync(Stream.Null);
                response.Dispose();
            }
        }
        finally
        {
            await slow.CancelAsync();
        }

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
        var refused = await Assert.ThrowsAsync<RpcException>(async () => await service.GetOrganizationAsync(new OrganizationRequest { Count = 10 }));
        Assert.Equal(StatusCode.ResourceExhausted, refused.StatusCode);

        // Kestrel does not time an HTTP/2 request body that sends nothing at all, so the upload keeps the minimum rate
        // itself: after the grace, each call ends with DEADLINE_EXCEEDED naming the setting, well before the deadline.
        foreach (var call in new[] { first, second })
        {
            var cut = await Assert.ThrowsAsync<RpcException>(async () => await call.ResponseAsync.WaitAsync(TimeSpan.FromSeconds(DeadlineSeconds)));
            Assert.Equal(StatusCode.DeadlineExceeded, cut.StatusCode);
            Assert.Contains("MinDataRateBytesPerSecond", cut.Status.Detail, StringComparison.Ordinal);
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
        var buffer = new byte[64 * 1024];
        long received = 0;

        // 1.5 MB/s: above the minimum rate, but too slow to read 200,000 members of JSON within the 10 s deadline.
        var cut = await Assert.ThrowsAnyAsync<Exception>(async () =>
        {
            int read;
            while ((read = await body.ReadAsync(buffer)) > 0)
            {
                received += read;
                await SlowClientTests.PaceAsync(started, received, 3 * 512 * 1024);
            }
        });
        Assert.True(cut is HttpRequestException or IOException, cut.ToString());
        Assert.InRange(started.Elapsed.TotalSeconds, DeadlineSeconds - 0.5, DeadlineSeconds + 5);
        Assert.Contains(server.AppEvents, e => SlowClientTests.IsCut(e, "GET", Address, "a heavy request may last"));

        using var next = await client.GetAsync("/api/organization?format=binary");
        Assert.Equal(HttpStatusCode.OK, next.StatusCode);
        server.AssertNoErrorsLogged();
    }
}
