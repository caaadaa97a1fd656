using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using WebSerialization.Models;

namespace WebSerialization.IntegrationTests;

/// <summary>The configured limits, on a server whose limits are small (<see cref="LimitedApiServer"/>).</summary>
[Collection(LimitedApiCollection.Name)]
public sealed class UploadLimitTests(LimitedApiServer server)
{
    [Fact]
    public async Task RejectsABodyOverTheConfiguredSizeWith413()
    {
        var body = Encoding.UTF8.GetBytes("{\"id\":1,\"tags\":[\"" + new string('a', 300_000) + "\"]}");

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Json, body);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        await AssertStillServingAsync();
    }

    [Theory]
    [InlineData(WireFormat.Json)]
    [InlineData(WireFormat.MessagePack)]
    [InlineData(WireFormat.Protobuf)]
    [InlineData(WireFormat.Binary)]
    public async Task RejectsMoreMembersThanTheLimitNamingIt(WireFormat format)
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, format, 1000);

        using var response = await HttpPayloads.UploadAsync(server.Client, format, body);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        Assert.Equal("MaxMembers", problem.RootElement.GetProperty("limit").GetString());
    }

    [Fact]
    public async Task RejectsMoreTagsThanTheLimitNamingIt()
    {
        var body = "{\"id\":1,\"tags\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"],\"members\":[]}"u8.ToArray();

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Json, body);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        Assert.Equal("MaxTags", problem.RootElement.GetProperty("limit").GetString());
    }

    [Fact]
    public async Task RejectsALongerStringThanTheLimitNamingIt()
    {
        var body = Encoding.UTF8.GetBytes("{\"id\":1,\"tags\":[],\"members\":[{\"id\":1,\"name\":\"" + new string('n', 100) + "\"}]}");

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Json, body);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        Assert.Equal("MaxStringBytes", problem.RootElement.GetProperty("limit").GetString());
    }

    [Fact]
    public async Task AnswersHeavyRequestsBeyondTheConcurrencyLimitWith429AndRetryAfter()
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, 100);
        using (var holder = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
        {
            // An upload that has sent half its body holds the only heavy permit until it finishes or goes away. It
            // asks for 100 Continue and waits for it, so the next request is sent only once the upload holds the
            // permit: sent straight after the head, the next request could reach the limiter first on a busy machine.
            await holder.ConnectAsync(IPAddress.Loopback, server.BaseAddress.Port);
            var head = $"POST /api/organization HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {WireMediaTypes.Binary}\r\n" +
                $"Content-Length: {payload.Length}\r\nExpect: 100-continue\r\n\r\n";
            await holder.SendAsync(Encoding.ASCII.GetBytes(head));
            await RawSocketClient.ReadContinueAsync(holder);
            await holder.SendAsync(payload.AsMemory(0, payload.Length / 2));

            var stopwatch = Stopwatch.StartNew();
            using var rejected = await server.Client.GetAsync("/api/organization?format=binary");
            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(2), $"The 429 took {stopwatch.Elapsed}.");
            using var problem = await HttpPayloads.AssertProblemAsync(rejected, 429);
            Assert.Equal(TimeSpan.FromSeconds(7), rejected.Headers.RetryAfter?.Delta);

            using var light = await server.Client.GetAsync("/api/organization?count=5&format=binary");
            Assert.Equal(HttpStatusCode.OK, light.StatusCode);
            holder.LingerState = new LingerOption(enable: true, seconds: 0);
        }

        await AssertStillServingAsync();
    }

    private async Task AssertStillServingAsync()
    {
        var stopwatch = Stopwatch.StartNew();
        while (true)
        {
            using var response = await server.Client.GetAsync("/api/organization?format=json");
            if (response.StatusCode == HttpStatusCode.OK)
            {
                break;
            }

            // The permit comes back once the server has noticed the abandoned upload.
            Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(10), "The heavy permit was never released.");
            await Task.Delay(50);
        }

        server.AssertNoErrorsLogged();
    }
}
