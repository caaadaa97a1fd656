using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using WebSerialization.Models;

namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class ClientDisconnectTests(ApiServer server)
{
    [Theory]
    [InlineData("json")]
    [InlineData("msgpack")]
    [InlineData("protobuf")]
    [InlineData("binary")]
    public async Task StopsEncodingPromptlyWhenTheClientLeavesMidBody(string format)
    {
        var before = server.AppEvents.Count;
        using (var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
        {
            await socket.ConnectAsync(IPAddress.Loopback, server.BaseAddress.Port);
            var request = $"GET /api/organization?format={format} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            await socket.SendAsync(Encoding.ASCII.GetBytes(request));

            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            var buffer = new byte[64 * 1024];
            var received = 0;
            while (received < buffer.Length)
            {
                var read = await socket.ReceiveAsync(buffer.AsMemory(received), SocketFlags.None, timeout.Token);
                Assert.NotEqual(0, read);
                received += read;
            }

            // A reset, not a polite FIN: the way a killed client or a dropped network looks to the server.
            socket.LingerState = new LingerOption(enable: true, seconds: 0);
        }

        var stopwatch = Stopwatch.StartNew();
        while (!server.AppEvents.Skip(before).Any(e => e.Message.Contains("client disconnected", StringComparison.OrdinalIgnoreCase)))
        {
            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(30), "The server did not notice the client had gone within 30 s.");
            await Task.Delay(20);
        }

        server.AssertNoErrorsLogged();
        using var next = await server.Client.GetAsync($"/api/organization?count=10&format={format}");
        Assert.Equal(HttpStatusCode.OK, next.StatusCode);
    }

    [Fact]
    public async Task KeepsServingWhenAClientCancelsAnHttpRequest()
    {
        using (var cancellation = new CancellationTokenSource())
        {
            using var response = await server.Client.GetAsync("/api/organization?format=json", HttpCompletionOption.ResponseHeadersRead, cancellation.Token);
            await using var body = await response.Content.ReadAsStreamAsync(cancellation.Token);
            var buffer = new byte[16 * 1024];
            await body.ReadAtLeastAsync(buffer, buffer.Length, cancellationToken: cancellation.Token);
            await cancellation.CancelAsync();
        }

        using var health = await server.Client.GetAsync("/healthz");
        Assert.Equal(HttpStatusCode.OK, health.StatusCode);
        using var next = await server.Client.GetAsync("/api/organization?count=3", HttpCompletionOption.ResponseHeadersRead);
        await using var nextBody = await next.Content.ReadAsStreamAsync();
        var (organization, _) = await OrganizationAssert.DecodeAsync(nextBody, WireFormat.Json);
        Assert.Equal(3, organization.Members!.Count);
        server.AssertNoErrorsLogged();
    }
}
