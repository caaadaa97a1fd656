using WebSerialization.Models.Streaming;

namespace WebSerialization.IntegrationTests;

// A conversion streams its answer while the upload is still arriving, so an upload can turn out bad after the answer
// has started. Then the answer must not look complete: the connection is aborted and the chunked body never gets its
// terminating chunk. Before the first chunk has gone out, a bad upload still gets its 4xx problem.
[Collection(ApiCollection.Name)]
public sealed class ConversionFailureTests(ApiServer server)
{
    // Enough binary members that every target format's answer passes its first 128 KB chunk long before the end.
    private const int MemberCount = 20_000;

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task AbortsTheAnswerOnARawSocketWhenTheUploadTurnsOutTruncatedAfterTheAnswerStarted(WireFormat to)
    {
        // All but the last member first; the rest, cut short, only once the answer is arriving.
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, MemberCount);
        var body = payload[..^64];
        var tail = payload[^64..^2];
        var head = $"POST /api/organization/convert?format={to.Key} HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            $"Content-Type: {WireMediaTypes.Binary}\r\nContent-Length: {(body.Length + tail.Length).ToString(CultureInfo.InvariantCulture)}";

        var before = server.AppEvents.Count;
        var (answer, reset) = await RawSocketClient.SendAndReadUntilClosedAsync(server.BaseAddress.Port, head, body, tail, answerBytesBeforeTail: 16 * 1024);

        var text = Encoding.Latin1.GetString(answer);
        Assert.StartsWith("HTTP/1.1 200 OK\r\n", text, StringComparison.Ordinal);
        Assert.Contains("\r\nTransfer-Encoding: chunked\r\n", text, StringComparison.OrdinalIgnoreCase);
        Assert.False(text.EndsWith("\r\n0\r\n\r\n", StringComparison.Ordinal), $"The chunked body was terminated as if complete ({answer.Length} bytes, reset: {reset}).");
        await server.WaitForEventsAsync(e => e.Message.Contains("the response was aborted", StringComparison.Ordinal), TimeSpan.FromSeconds(30), "The server did not log the aborted conversion within 30 s.", skip: before);

        await server.AssertStillServingAsync("/api/organization?count=10");
    }

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task HttpClientSeesAFailureNotACompleteAnswerWhenTheUploadTurnsOutTruncatedAfterTheAnswerStarted(WireFormat to)
    {
        var body = (await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, MemberCount))[..^2];
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/api/organization/convert?format={to.Key}")
        {
            Content = new ByteArrayContent(body) { Headers = { ContentType = new(WireMediaTypes.Binary) } },
        };
        long received = 0;

        var failure = await Record.ExceptionAsync(async () =>
        {
            using var response = await server.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            await using var stream = await response.Content.ReadAsStreamAsync();
            var buffer = new byte[64 * 1024];
            for (int read; (read = await stream.ReadAsync(buffer)) > 0;)
            {
                received += read;
            }
        });

        Assert.True(failure is HttpRequestException or IOException, $"After {received} bytes: {failure?.GetType().Name ?? "the answer completed"}: {failure?.Message}");
        await server.AssertStillServingAsync("/api/organization?count=10");
    }

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task AnswersAProblemWhenTheUploadTurnsOutBadBeforeTheFirstChunk(WireFormat to)
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, 10);

        using var response = await HttpPayloads.PostAsync(server.Client, $"/api/organization/convert?format={to.Key}", body[..^2], WireMediaTypes.Binary);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        Assert.Equal("Truncated body", problem.RootElement.GetProperty("title").GetString());
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
