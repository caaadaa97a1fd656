using System.Text.RegularExpressions;
using WebSerialization.Api.Limits;

namespace WebSerialization.IntegrationTests;

// The million-member server with the production rates and shares but a 2 s grace period, so that a client below the
// minimum rate is cut within seconds. Each test uses source addresses of its own, so the shares of one test never
// meet another's.
public sealed class SlowClientApiServer()
    : ApiServer(new() { ["Limits:MinDataRateGraceSeconds"] = SlowClientTests.GraceSeconds.ToString(CultureInfo.InvariantCulture) });

public sealed class SlowClientTests(SlowClientApiServer server) : IClassFixture<SlowClientApiServer>
{
    public const int GraceSeconds = 2;

    private const string Binary = "/api/organization?format=binary";

    [Fact]
    public async Task SlowClientsFromOneAddressLeaveOtherClientsTheirDownloads()
    {
        using var slow = new CancellationTokenSource();
        var payload = await BinaryOrganizationAsync();
        var dribblers = Enumerable.Range(0, 8).Select(_ => SlowClients.StartDribblingUploadAsync(server.BaseAddress.Port, "127.0.0.2", payload, slow.Token));
        var readers = Enumerable.Range(0, 8).Select(_ => SlowClients.StartSlowReadAsync(server.BaseAddress.Port, "127.0.0.2", "/api/organization?format=json", slow.Token));
        var clients = await Task.WhenAll(dribblers.Concat(readers));
        try
        {
            // One address holds its share (a 100 Continue or a 200 is a slot taken); the rest of its requests are refused.
            Assert.Equal(2, clients.Count(client => client.Status is 100 or 200));
            Assert.Equal(14, clients.Count(client => client.Status == 429));

            using var other = LoopbackClients.From("127.0.0.3", server.BaseAddress);
            for (var attempt = 0; attempt < 3; attempt++)
            {
                var asked = Stopwatch.StartNew();
                using var response = await other.GetAsync(Binary, HttpCompletionOption.ResponseHeadersRead);
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                Assert.True(asked.Elapsed < TimeSpan.FromSeconds(2), $"Download {attempt} waited {asked.Elapsed} for its answer.");
                Assert.Equal(payload.Length, (await response.Content.ReadAsByteArrayAsync()).Length);
            }
        }
        finally
        {
            await slow.CancelAsync();
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }

        server.AssertNoErrorsLogged();
    }

    // Each dribbling upload is answered 408 by Kestrel, not left hanging nor answered 500.
    [Fact]
    public async Task UploadsBelowTheMinimumRateAreCutAndTheirSlotsFreed()
    {
        const string Address = "127.0.0.4";
        var payload = await BinaryOrganizationAsync();
        var deadline = TimeSpan.FromSeconds(GraceSeconds + 5);

        var lengths = await SlowClients.AssertCutAndFreedAsync(
            server,
            Address,
            token => SlowClients.StartDribblingUploadAsync(server.BaseAddress.Port, Address, payload, token),
            100,
            Binary,
            ("POST", "its body arrived below"),
            deadline,
            async socket => Assert.Equal(408, await LoopbackClients.ReadStatusAsync(socket, deadline)));

        Assert.Equal([payload.Length, payload.Length], lengths);
        server.AssertNoErrorsLogged();
    }

    [Fact]
    public async Task ClientsOnASlowLinkCompleteTheirDownloadAndUpload()
    {
        const int BytesPerSecond = 1024 * 1024;
        var payload = await BinaryOrganizationAsync();

        var download = Task.Run(async () =>
        {
            using var client = LoopbackClients.From("127.0.0.5", server.BaseAddress);
            using var response = await client.GetAsync(Binary, HttpCompletionOption.ResponseHeadersRead);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            await using var body = await response.Content.ReadAsStreamAsync();
            return await SlowClients.ReadPacedAsync(body, BytesPerSecond, Stopwatch.StartNew());
        });

        var upload = Task.Run(async () =>
        {
            using var client = LoopbackClients.From("127.0.0.6", server.BaseAddress);
            using var content = new PacedContent(payload, BytesPerSecond) { Headers = { ContentType = new(WireMediaTypes.Binary) } };
            using var response = await client.PostAsync("/api/organization", content);
            return (await HttpPayloads.AssertSummaryAsync(response)).MemberCount;
        });

        Assert.Equal(payload.Length, await download);
        Assert.Equal(server.Expected.Members!.Count, await upload);

        // The fixture's server is shared: another test's slow clients (other addresses) are cut while this one runs.
        Assert.DoesNotContain(server.AppEvents, e => e.Message.StartsWith("Cut ", StringComparison.Ordinal)
            && (e.Message.Contains(" from 127.0.0.5 ", StringComparison.Ordinal) || e.Message.Contains(" from 127.0.0.6 ", StringComparison.Ordinal)));
        server.AssertNoErrorsLogged();
    }

    [Fact]
    public async Task SixteenDownloadsFromSixteenAddressesStillMeetTheTotalLimitInBoundedMemory()
    {
        var clients = Enumerable.Range(10, 16).Select(n => LoopbackClients.From($"127.0.0.{n}", server.BaseAddress)).ToArray();
        GC.Collect();
        var before = GC.GetTotalMemory(forceFullCollection: true);
        var responses = await Task.WhenAll(clients.Select(client => client.GetAsync("/api/organization?format=json", HttpCompletionOption.ResponseHeadersRead)));
        try
        {
            // No body is read yet, and a million members of JSON do not fit in socket buffers: every 200 still holds its slot.
            Assert.Equal(8, responses.Count(response => response.StatusCode == HttpStatusCode.OK));
            Assert.Equal(8, responses.Count(response => response.StatusCode == HttpStatusCode.TooManyRequests));

            var during = GC.GetTotalMemory(forceFullCollection: true);
            Assert.True(during - before < 64L * 1024 * 1024, $"The heap grew by {(during - before) / 1024 / 1024} MB with 8 downloads under way.");
            foreach (var response in responses.Where(response => response.StatusCode == HttpStatusCode.OK))
            {
                await using var body = await response.Content.ReadAsStreamAsync();
                await body.CopyToAsync(Stream.Null);
            }
        }
        finally
        {
            foreach (var disposable in responses.Concat<IDisposable>(clients))
            {
                disposable.Dispose();
            }
        }

        server.AssertNoErrorsLogged();
    }

    [Fact]
    public async Task AForwardedForHeaderFromAnUntrustedPeerDoesNotMakeANewClient()
    {
        var statuses = await SlowClients.ForwardedReadStatusesAsync(server.BaseAddress.Port, "127.0.0.41", "/api/organization?format=json", "203.0.113.1", "203.0.113.2", "203.0.113.3");

        Assert.Equal([200, 200, 429], statuses);
    }

    [Fact]
    public void ProductionDefaultsAreTheDocumentedOnes()
    {
        var docs = File.ReadAllText(Path.Combine(RepositoryFolder.Root, "docs", "configuration.md"));
        using var appsettings = JsonDocument.Parse(File.ReadAllText(Path.Combine(RepositoryFolder.Root, "src", "Api", "appsettings.json")));
        var limits = appsettings.RootElement.GetProperty("Limits");
        var defaults = new HeavyRequestOptions();
        foreach (var (name, value) in new (string, double)[]
        {
            (nameof(HeavyRequestOptions.MaxConcurrentHeavyRequests), defaults.MaxConcurrentHeavyRequests),
            (nameof(HeavyRequestOptions.MaxHeavyRequestsPerClient), defaults.MaxHeavyRequestsPerClient),
            (nameof(HeavyRequestOptions.MinDataRateBytesPerSecond), defaults.MinDataRateBytesPerSecond),
            (nameof(HeavyRequestOptions.MinDataRateGraceSeconds), defaults.MinDataRateGraceSeconds),
            (nameof(HeavyRequestOptions.MaxHeavyRequestSeconds), defaults.MaxHeavyRequestSeconds),
        })
        {
            var documented = Regex.Match(docs, $@"\| `Limits__{name}` \| `([0-9.]+)`");
            Assert.True(documented.Success, $"docs/configuration.md has no row for Limits__{name}.");
            Assert.Equal(value, double.Parse(documented.Groups[1].Value, CultureInfo.InvariantCulture));
            Assert.Equal(value, limits.GetProperty(name).GetDouble());
        }

        Assert.Empty(defaults.TrustedProxies);
    }

    private async Task<byte[]> BinaryOrganizationAsync() => await server.Client.GetByteArrayAsync(Binary);

    // The body at a steady rate, 64 KB at a time.
    private sealed class PacedContent(byte[] payload, int bytesPerSecond) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            var clock = Stopwatch.StartNew();
            for (var offset = 0; offset < payload.Length; offset += 64 * 1024)
            {
                await SlowClients.PaceAsync(clock, offset, bytesPerSecond);
                await stream.WriteAsync(payload.AsMemory(offset, Math.Min(64 * 1024, payload.Length - offset)));
            }
        }

        protected override bool TryComputeLength(out long length)
        {
            length = payload.Length;
            return true;
        }
    }
}
