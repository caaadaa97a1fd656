namespace WebSerialization.IntegrationTests;

/// <summary>One log line per request: method, path and query, status, format, Content-Encoding, bytes sent, duration.</summary>
[Collection(ApiCollection.Name)]
public sealed class RequestLogTests(ApiServer server)
{
    [Theory]
    [InlineFormatData("json", "identity")]
    [InlineFormatData("msgpack", "identity")]
    [InlineFormatData("protobuf", "gzip")]
    [InlineFormatData("binary", "br")]
    public async Task LogsOneLinePerRequestWithTheBytesAsSent(WireFormat format, string encoding)
    {
        var key = format.Key;
        var probe = Guid.NewGuid().ToString("N");
        var path = $"/api/organization?count=100&format={key}&probe={probe}";
        using var response = await HttpPayloads.GetAsync(server.Client, path, acceptEncoding: encoding);
        var sent = (await response.Content.ReadAsByteArrayAsync()).Length;

        var line = await server.RequestLogLineAsync(probe);
        var expected = string.Create(CultureInfo.InvariantCulture, $"GET {path} 200 {key} {encoding} {sent} bytes in ");
        Assert.StartsWith(expected, line, StringComparison.Ordinal);
        Assert.EndsWith(" ms", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NamesTheMediaTypeOfResponsesThatAreNotAFormat()
    {
        var probe = Guid.NewGuid().ToString("N");

        using var response = await server.Client.GetAsync($"/api/organization?count=abc&probe={probe}");

        var line = await server.RequestLogLineAsync(probe);
        Assert.Contains(" 400 application/problem+json identity ", line, StringComparison.Ordinal);
    }
}
