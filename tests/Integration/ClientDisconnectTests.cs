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
        await RawSocketClient.ReadThenResetAsync(server.BaseAddress.Port, $"GET /api/organization?format={format} HTTP/1.1\r\nHost: 127.0.0.1", 64 * 1024);

        await server.WaitForEventsAsync(e => e.Message.Contains("client disconnected", StringComparison.OrdinalIgnoreCase), TimeSpan.FromSeconds(30), "The server did not notice the client had gone within 30 s.", skip: before);
        await server.AssertStillServingAsync($"/api/organization?count=10&format={format}");
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

        await server.AssertStillServingAsync("/api/organization?count=3&format=json");
    }
}
