using WebSerialization.Models.Baseline;
using WebSerialization.Models.Codecs;

namespace WebSerialization.IntegrationTests;

/// <summary>Untrusted bytes: every bad body gets a 4xx problem, never a 5xx or a hang, and the next good request succeeds.</summary>
[Collection(ApiCollection.Name)]
public sealed class BadUploadTests(ApiServer server)
{
    public static TheoryData<string> FormatKeys() => [.. WireFormat.All.Select(format => format.Key)];

    // Format keys rather than formats, so that each row is a test case of its own in a listing.
    public static TheoryData<string, string> EndpointsAndFormats() => TheoryRows.Of(
        WireFormat.All.Select(format => ("/api/organization", format.Key))
            .Concat(BaselineContract.Sent.Keys.Select(format => (HttpPayloads.BaselinePath, format.Key))));

    // Bodies the model cannot hold: a tag of invalid UTF-8 in every format, nesting the model does not have.
    public static TheoryData<string, string> MalformedBodies() => TheoryRows.Of(
        WireFormat.All.Select(format => ("invalid UTF-8", format.Key)).Concat([("nesting", "json"), ("nesting", "msgpack")]));

    [Theory]
    [MemberData(nameof(EndpointsAndFormats))]
    public async Task RejectsEveryTruncationOfAValidPayloadWith400AndServesTheNextRequest(string path, string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var payload = await HttpPayloads.DownloadAsync(server.Client, format, 3);
        var full = OrganizationChecksum.Compute(server.ExpectedFirst(3));
        var contentType = HttpPayloads.ContentType(path, format);

        for (var length = 0; length < payload.Length; length++)
        {
            using var response = await HttpPayloads.PostAsync(server.Client, path, payload[..length], contentType);
            if (format == WireFormat.Protobuf && response.StatusCode == HttpStatusCode.OK)
            {
                // Protobuf has no end marker: a cut at a field boundary is a valid, smaller message. It must not pass for the whole.
                Assert.NotEqual(full, (await HttpPayloads.ReadSummaryAsync(response)).Checksum);
                continue;
            }

            using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        }

        await server.AssertStillServingAsync();
    }

    // A fixed seed and count of corrupt bodies (bytes replaced): the server must reject exactly those that the format's
    // decoder rejects in-process, each with a 400 or 413 problem, and accept the rest; never a server error.
    [Theory]
    [MemberData(nameof(FormatKeys))]
    public async Task RejectsExactlyTheSeededCorruptionsTheDecoderRejectsAndNeverFailsWithAServerError(string formatKey)
    {
        const int Cases = 300;
        var format = WireFormat.FromKey(formatKey)!;
        var payload = await HttpPayloads.DownloadAsync(server.Client, format, 20);
        var random = new Random(20261121);
        var (rejected, rejectedInProcess) = (0, 0);
        for (var index = 0; index < Cases; index++)
        {
            var corrupted = (byte[])payload.Clone();
            for (var flips = random.Next(1, 4); flips > 0; flips--)
            {
                corrupted[random.Next(corrupted.Length)] = (byte)random.Next(256);
            }

            var decoderRejects = Record.Exception(() => CodecHarness.Decode(format.Codec, corrupted)) is WireFormatException;
            using var response = await HttpPayloads.UploadAsync(server.Client, format, corrupted);

            var status = (int)response.StatusCode;
            Assert.True(status is 200 or 400 or 413, $"Case {index}: {status} {await response.Content.ReadAsStringAsync()}");
            Assert.True(decoderRejects == (status != 200), $"Case {index}: {status}, the decoder {(decoderRejects ? "rejects" : "accepts")} {Convert.ToHexString(corrupted)}");
            rejected += status == 200 ? 0 : 1;
            rejectedInProcess += decoderRejects ? 1 : 0;
        }

        Assert.Equal(rejectedInProcess, rejected);
        Assert.InRange(rejected, Cases / 4, Cases);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [InlineFormatData("json", "msgpack")]
    [InlineFormatData("msgpack", "json")]
    [InlineFormatData("binary", "protobuf")]
    [InlineFormatData("json", "binary")]
    [InlineFormatData("protobuf", "msgpack")]
    public async Task RejectsABodyInAnotherFormatThanItsContentTypeSays(WireFormat actual, WireFormat declared)
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, actual, 5);

        using var response = await HttpPayloads.UploadAsync(server.Client, declared, payload);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [InlineData(null)]
    [InlineData("text/plain")]
    [InlineData("application/xml")]
    [InlineData("application/*")]
    [InlineData("*/*")]
    // A +json type is not our JSON: only the table's names and aliases are upload types.
    [InlineData(WireMediaTypes.ProblemJson)]
    [InlineData("application/vnd.api+json")]
    [InlineData("application/*+json")]
    public async Task RejectsAMissingOrUnsupportedContentTypeListingTheSupportedOnes(string? contentType)
    {
        using var response = await HttpPayloads.PostAsync(server.Client, "/api/organization", "{}"u8.ToArray(), contentType);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 415);
        HttpPayloads.AssertSupportedMediaTypes(problem, WireFormat.All);
    }

    [Theory]
    [MemberData(nameof(MalformedBodies))]
    public async Task RejectsInvalidUtf8InAStringAndNestingDeeperThanTheModel(string body, string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;

        using var response = await HttpPayloads.UploadAsync(server.Client, format, MalformedPayloads.Named(body, format));

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task RejectsATinyBodyDeclaringAHugeCountOrLengthQuickly(WireFormat format)
    {
        var stopwatch = Stopwatch.StartNew();

        using var response = await HttpPayloads.UploadAsync(server.Client, format, MalformedPayloads.Bomb(format));

        Assert.True(response.StatusCode is HttpStatusCode.BadRequest or HttpStatusCode.RequestEntityTooLarge, $"Got {response.StatusCode}");
        Assert.Equal(WireMediaTypes.ProblemJson, response.Content.Headers.ContentType?.MediaType);
        Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(2), $"Took {stopwatch.Elapsed}");
        await server.AssertStillServingAsync();
    }

    // The MVC baseline's upload filter logs the dropped body in words of its own.
    [Theory]
    [MemberData(nameof(EndpointsAndFormats))]
    public async Task ForgetsAnUploadWhoseClientDisconnectsMidBody(string path, string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var before = server.AppEvents.Count;
        var payload = await HttpPayloads.DownloadAsync(server.Client, format, 1000);
        LoopbackClients.Reset(await RawSocketClient.SendHalfAnUploadAsync(server.BaseAddress.Port, path, HttpPayloads.ContentType(path, format), payload));

        var logged = path == HttpPayloads.BaselinePath ? "disconnected while uploading to the MVC baseline" : "disconnected while uploading";
        await server.WaitForEventsAsync(e => e.Message.Contains(logged, StringComparison.Ordinal), TimeSpan.FromSeconds(10), "The server did not notice the upload was abandoned.", skip: before);
        await server.AssertStillServingAsync();
    }
}
