using System.IO.Compression;
using System.Text.RegularExpressions;

namespace WebSerialization.IntegrationTests;

/// <summary>Content-Encoding negotiated by Accept-Encoding, on the real server (HttpClient here decompresses nothing itself).</summary>
[Collection(ApiCollection.Name)]
public sealed partial class ResponseCompressionTests(ApiServer server)
{
    private const int Count = 1000;

    public static TheoryData<WireFormat, string> FormatsAndEncodings() => TheoryRows.Of(from format in WireFormat.All from encoding in new[] { "br", "gzip" } select (format, encoding));

    [Theory]
    [MemberData(nameof(FormatsAndEncodings))]
    public async Task CompressedResponsesDecodeToTheSameOrganization(WireFormat format, string encoding)
    {
        using var response = await HttpPayloads.GetAsync(server.Client, $"/api/organization?count={Count}", format.MediaType, encoding, HttpCompletionOption.ResponseHeadersRead);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal([encoding], response.Content.Headers.ContentEncoding);
        Assert.Contains("Accept-Encoding", response.Headers.Vary);
        Assert.Contains("Accept", response.Headers.Vary);
        Assert.Null(response.Content.Headers.ContentLength);
        await using var compressed = await response.Content.ReadAsStreamAsync();
        await using Stream body = encoding == "br" ? new BrotliStream(compressed, CompressionMode.Decompress) : new GZipStream(compressed, CompressionMode.Decompress);
        var (organization, _) = await OrganizationAssert.DecodeAsync(body, format);
        OrganizationAssert.Equal(server.Expected, Count, organization);
    }

    [Fact]
    public async Task PrefersBrotliWhenTheClientTakesBoth()
    {
        using var response = await HttpPayloads.GetAsync(server.Client, "/api/organization?count=10", acceptEncoding: "gzip, deflate, br");

        Assert.Equal(["br"], response.Content.Headers.ContentEncoding);
    }

    [Fact]
    public async Task SendsTheBodyAsIsWhenTheClientAsksForNoEncoding()
    {
        var expected = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, Count);
        using var response = await HttpPayloads.GetAsync(server.Client, $"/api/organization?count={Count}&format=binary", acceptEncoding: "identity");

        Assert.Empty(response.Content.Headers.ContentEncoding);
        Assert.Equal(expected, await response.Content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task CompressesProblemDetails()
    {
        using var response = await HttpPayloads.GetAsync(server.Client, "/api/organization?count=abc", acceptEncoding: "gzip");

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal(["gzip"], response.Content.Headers.ContentEncoding);
        await using var body = new GZipStream(await response.Content.ReadAsStreamAsync(), CompressionMode.Decompress);
        using var reader = new StreamReader(body);
        Assert.Contains("\"status\":400", await reader.ReadToEndAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task KeepsACompressedDownloadWaitingForAClientThatStopsReading()
    {
        // Streamed, the compressed body stops at what the socket buffers hold while the client sits still, far short of
        // the whole; the request log line says how far it got before the client reset the connection.
        var probe = Guid.NewGuid().ToString("N");
        await RawSocketClient.ReadThenResetAsync(
            server.BaseAddress.Port,
            $"GET /api/organization?format=json&probe={probe} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: br",
            64 * 1024,
            pause: TimeSpan.FromSeconds(2));

        var line = await server.RequestLogLineAsync(probe);
        Assert.Contains("br", line, StringComparison.Ordinal);
        Assert.Contains("then the connection was aborted", line, StringComparison.Ordinal);
        var bytes = long.Parse(BytesSent().Match(line).Groups[1].Value, CultureInfo.InvariantCulture);
        Assert.InRange(bytes, 64 * 1024, 16L * 1024 * 1024);
        server.AssertNoErrorsLogged();
    }

    [GeneratedRegex(@" (\d+) bytes in ")]
    private static partial Regex BytesSent();
}
