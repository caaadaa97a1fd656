using WebSerialization.Models.Baseline;

namespace WebSerialization.IntegrationTests;

// The configured limits, on a server whose limits are small (LimitedApiServer). The MVC baseline's upload reads the whole
// body before it decodes anything, so it is held to the same body-size limit and heavy-request limiter as the streamed one.
[Collection(LimitedApiCollection.Name)]
public sealed class UploadLimitTests(LimitedApiServer server)
{
    private const string Streamed = "/api/organization";

    // Format keys rather than formats, so that each row is a test case of its own in a listing.
    public static TheoryData<string, string> FormatsAndLimits() => TheoryRows.Of(
        from format in WireFormat.All from limit in new[] { "MaxMembers", "MaxTags", "MaxStringBytes" } select (format.Key, limit));

    public static TheoryData<string, string> EndpointsAndFormats() => TheoryRows.Of(
        BaselineContract.Sent.Keys.Select(format => (HttpPayloads.BaselinePath, format.Key)).Prepend((Streamed, "json")));

    [Theory]
    [MemberData(nameof(EndpointsAndFormats))]
    public async Task RejectsABodyOverTheConfiguredSizeWith413(string path, string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var body = path == HttpPayloads.BaselinePath ? new byte[300_000] : Encoding.UTF8.GetBytes("{\"id\":1,\"tags\":[\"" + new string('a', 300_000) + "\"]}");

        using var response = await HttpPayloads.PostAsync(server.Client, path, body, HttpPayloads.ContentType(path, format));

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        await server.AssertStillServingAsync(path + "?format=json");
    }

    // The server allows 500 members, 5 tags and strings of 64 bytes.
    [Theory]
    [MemberData(nameof(FormatsAndLimits))]
    public async Task RejectsABodyOverEachDecodeLimitNamingIt(string formatKey, string limit)
    {
        var format = WireFormat.FromKey(formatKey)!;
        using var response = await HttpPayloads.UploadAsync(server.Client, format, await server.BodyOverAsync(format, limit));

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        Assert.Equal(limit, problem.RootElement.GetProperty("limit").GetString());
    }

    // The upload that has sent half its body holds the only heavy permit until it finishes or goes away (a baseline
    // upload while MVC's input formatter waits for the rest).
    [Theory]
    [InlineData(Streamed, "binary", "binary")]
    [InlineData(HttpPayloads.BaselinePath, "msgpack", "protobuf")]
    public async Task AnswersHeavyRequestsBeyondTheConcurrencyLimitWith429AndRetryAfter(string path, string uploadFormat, string downloadFormat)
    {
        var format = WireFormat.FromKey(uploadFormat)!;
        var payload = await HttpPayloads.DownloadAsync(server.Client, format, 100);
        var contentType = HttpPayloads.ContentType(path, format);
        using (var holder = await RawSocketClient.SendHalfAnUploadAsync(server.BaseAddress.Port, path, contentType, payload))
        {
            var stopwatch = Stopwatch.StartNew();
            using var rejected = await server.Client.GetAsync($"{path}?format={downloadFormat}");
            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(2), $"The 429 took {stopwatch.Elapsed}.");
            using var problem = await HttpPayloads.AssertProblemAsync(rejected, 429);
            Assert.Equal(TimeSpan.FromSeconds(7), rejected.Headers.RetryAfter?.Delta);

            using var light = await server.Client.GetAsync($"{path}?count=5&format={downloadFormat}");
            Assert.Equal(HttpStatusCode.OK, light.StatusCode);
            LoopbackClients.Reset(holder);
        }

        await server.AssertStillServingAsync(path + "?format=json");
    }
}
