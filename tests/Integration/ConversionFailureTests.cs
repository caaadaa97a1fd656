using WebSerialization.Models.Streaming;

namespace WebSerialization.IntegrationTests;

// A conversion sends no byte of its answer before the whole upload has been read, so an upload that turns out bad,
// however late, gets its 4xx problem, and a client that reads nothing while it sends finds nothing piled up unread.
[Collection(ApiCollection.Name)]
public sealed class ConversionFailureTests(ApiServer server)
{
    // Enough binary members that every target format's answer fills several 512 KB chunks long before the end.
    private const int MemberCount = 100_000;

    public static TheoryData<WireFormat, int> FormatsAndMemberCounts =>
        TheoryRows.Of(WireFormat.All.SelectMany(format => new[] { (format, 10), (format, MemberCount) }));

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task SendsNoByteOfTheAnswerOnARawSocketBeforeTheUploadTurnsOutTruncated(WireFormat to)
    {
        // All but the last member first, then a pause in which the server converts them; then the rest, cut short.
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, MemberCount);
        var body = payload[..^64];
        var tail = payload[^64..^2];
        var head = $"POST /api/organization/convert?format={to.Key} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
            $"Content-Type: {WireMediaTypes.Binary}\r\nContent-Length: {(body.Length + tail.Length).ToString(CultureInfo.InvariantCulture)}";

        var (answer, bytesBeforeTail) = await RawSocketClient.SendAndReadUntilClosedAsync(server.BaseAddress.Port, head, body, tail, pauseBeforeTail: TimeSpan.FromSeconds(1));

        var text = Encoding.Latin1.GetString(answer);
        Assert.Equal(0, bytesBeforeTail);
        Assert.StartsWith("HTTP/1.1 400 ", text, StringComparison.Ordinal);
        Assert.Contains("\"title\":\"Truncated body\"", text, StringComparison.Ordinal);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [MemberData(nameof(FormatsAndMemberCounts))]
    public async Task AnswersAProblemWhenTheUploadTurnsOutTruncated(WireFormat to, int memberCount)
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, memberCount);

        using var response = await HttpPayloads.PostAsync(server.Client, $"/api/organization/convert?format={to.Key}", body[..^2], WireMediaTypes.Binary);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        Assert.Equal("Truncated body", problem.RootElement.GetProperty("title").GetString());
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task LeavesNoTemporaryFileBehindWhetherTheConversionSucceedsOrFails()
    {
        // JSON states no member count and binary needs it first, so these members always go through a temporary file.
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Json, MemberCount);
        var before = TemporaryFiles();

        using (var converted = await HttpPayloads.PostAsync(server.Client, "/api/organization/convert?format=binary", body, WireMediaTypes.Json))
        {
            Assert.Equal(HttpStatusCode.OK, converted.StatusCode);
        }

        using (var truncated = await HttpPayloads.PostAsync(server.Client, "/api/organization/convert?format=binary", body[..^2], WireMediaTypes.Json))
        {
            using var problem = await HttpPayloads.AssertProblemAsync(truncated, 400);
        }

        Assert.Equal(before, TemporaryFiles());
    }

    private static string[] TemporaryFiles() =>
        [.. Directory.GetFiles(Path.GetTempPath(), OrganizationStreamConverter.TemporaryFilePrefix + "*").Order(StringComparer.Ordinal)];
}
