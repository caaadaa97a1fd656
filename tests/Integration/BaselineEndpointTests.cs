using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Baseline;
using WebSerialization.Models.Baseline;
using WebSerialization.Models.Json;

namespace WebSerialization.IntegrationTests;

// The MVC baseline (/api/mvc/organization) beside the streamed endpoint: the same bytes and summaries, the
// negotiation cases where MVC answers differently (each listed in docs/performance.md), and bad bodies as 400s.
[Collection(ApiCollection.Name)]
public sealed class BaselineEndpointTests(ApiServer server)
{
    private const string BaselinePath = HttpPayloads.BaselinePath;

    // A browser's navigation Accept (Chromium's).
    private const string BrowserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

    private const string ThousandMembers = "1,000 members";

    // Each row: an upload (a download of 1,000 members, or the row's JSON) and its format. The JSON's three members
    // hold NaN, -Infinity and -0, which MVC's JSON must read as the streamed upload does.
    public static TheoryData<string, string> Uploads() => TheoryRows.Of(BaselineContract.Sent.Keys.Select(format => (ThousandMembers, format.Key)).Append((
        """{"id":1,"tags":[],"members":[{"id":1,"name":null,"description":null,"address":null,"value":"NaN","updateTime":1},{"id":2,"name":"a","description":"b","address":"c","value":"-Infinity","updateTime":2},{"id":3,"name":"a","description":"b","address":"c","value":-0,"updateTime":3}]}""",
        "json")));

    public static TheoryData<WireFormat, int> FormatsAndCounts() => TheoryRows.Of(
        from format in BaselineContract.Sent.Keys from count in new[] { 0, 3, 10_000, OrganizationGenerator.ArticleMemberCount } select (format, count));

    // Bodies the model cannot hold: one that declares far more than it holds, nesting the model does not have, a null organization or member.
    public static TheoryData<string, string> MalformedBodies() => TheoryRows.Of(
        BaselineContract.Sent.Keys.Select(format => ("bomb", format.Key))
            .Concat([("nesting", "json"), ("nesting", "msgpack"), ("""{"id":1,"members":[null]}""", "json"), ("null", "json")]));

    [Theory]
    [MemberData(nameof(FormatsAndCounts))]
    public async Task AnswersTheStreamedEndpointsBytesForTheSameCountAndFormat(WireFormat format, int count)
    {
        var query = $"?count={count}&format={format.Key}";

        var (streamedStatus, _, streamed) = await HashAsync("/api/organization" + query);
        var (baselineStatus, baselineType, baseline) = await HashAsync(BaselinePath + query);

        Assert.Equal(HttpStatusCode.OK, streamedStatus);
        Assert.Equal(HttpStatusCode.OK, baselineStatus);
        Assert.Equal(BaselineContract.Sent[format], baselineType);
        Assert.Equal(streamed, baseline);
    }

    [Fact]
    public void WritesSpecialDoublesAsTheStreamedJsonDoes()
    {
        var organization = new Organization
        {
            Id = -7,
            Tags = ["é", "\u2028", "<tag>"],
            Members =
            [
                .. new[] { double.NaN, double.PositiveInfinity, double.NegativeInfinity, -0.0, double.Epsilon, double.MaxValue, 0.1 }
                    .Select((value, i) => new Member { Id = i, Name = i % 2 == 0 ? null : "n", Value = value, UpdateTime = long.MinValue + i }),
            ],
        };
        var mvcJson = server.Services.GetRequiredService<IOptions<Microsoft.AspNetCore.Mvc.JsonOptions>>().Value.JsonSerializerOptions;

        var stock = JsonSerializer.SerializeToUtf8Bytes(organization, mvcJson);

        Assert.Equal(Encoding.UTF8.GetString(CodecHarness.Encode(JsonCodec.Instance, organization)), Encoding.UTF8.GetString(stock));
    }

    [Theory]
    [MemberData(nameof(Uploads))]
    public async Task AnswersTheSameSummaryAsTheStreamedUpload(string body, string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var bytes = body == ThousandMembers ? await HttpPayloads.DownloadAsync(server.Client, format, 1000) : Encoding.UTF8.GetBytes(body);

        var streamed = await UploadAsync("/api/organization", format, bytes);
        var baseline = await UploadAsync(BaselinePath, format, bytes);

        Assert.Equal(format.Key, baseline.Format);
        Assert.Equal(body == ThousandMembers ? 1000 : 3, baseline.MemberCount);
        Assert.Equal((streamed.Format, streamed.MemberCount, streamed.TagCount, streamed.BytesRead, streamed.Checksum), (baseline.Format, baseline.MemberCount, baseline.TagCount, baseline.BytesRead, baseline.Checksum));
    }

    // Each row: an Accept header, what the streamed endpoint answers, what MVC answers (status, media type or null).
    [Theory]
    [InlineData("application/json;q=0", 406, null, 200, WireMediaTypes.Json)]
    [InlineData("application/x-msgpack;q=0", 406, null, 200, WireMediaTypes.XMessagePack)]
    [InlineData("application/x-msgpack, */*;q=0.1", 200, WireMediaTypes.XMessagePack, 200, WireMediaTypes.Json)]
    [InlineData("application/protobuf;q=0.9, */*;q=0.1", 200, WireMediaTypes.Protobuf, 200, WireMediaTypes.Json)]
    [InlineData(BrowserAccept, 200, WireMediaTypes.Json, 200, WireMediaTypes.Json)]
    [InlineData("application/vnd.msgpack", 200, WireMediaTypes.MessagePack, 406, null)]
    [InlineData("application/msgpack", 200, WireMediaTypes.MessagePackShort, 406, null)]
    [InlineData("application/x-msgpack", 200, WireMediaTypes.XMessagePack, 200, WireMediaTypes.XMessagePack)]
    [InlineData("application/x-protobuf", 200, WireMediaTypes.XProtobuf, 200, WireMediaTypes.XProtobuf)]
    [InlineData("application/vnd.webserialization.binary", 200, WireMediaTypes.Binary, 406, null)]
    [InlineData("application/xml", 406, null, 406, null)]
    public async Task NegotiatesAsMvcDoesWhereItDiffersFromTheStreamedEndpoint(string accept, int streamedStatus, string? streamedType, int mvcStatus, string? mvcType)
    {
        using var streamed = await HttpPayloads.GetAsync(server.Client, "/api/organization?count=2", accept);
        using var baseline = await HttpPayloads.GetAsync(server.Client, BaselinePath + "?count=2", accept);

        AssertAnswer(streamed, streamedStatus, streamedType);
        AssertAnswer(baseline, mvcStatus, mvcType);
        Assert.Contains("Accept", streamed.Headers.Vary);
        Assert.DoesNotContain("Accept", baseline.Headers.Vary);
        if (mvcType == WireMediaTypes.Json && streamedType == WireMediaTypes.Json)
        {
            Assert.Equal(("utf-8", null), (baseline.Content.Headers.ContentType?.CharSet, streamed.Content.Headers.ContentType?.CharSet));
        }
    }

    [Fact]
    public async Task AnswersAnUnknownFormatWith404WhereTheStreamedEndpointSays406()
    {
        using var streamed = await server.Client.GetAsync("/api/organization?count=2&format=xml");
        using var baseline = await server.Client.GetAsync(BaselinePath + "?count=2&format=xml");

        using var ours = await HttpPayloads.AssertProblemAsync(streamed, 406);
        using var mvc = await HttpPayloads.AssertProblemAsync(baseline, 404);
    }

    [Theory]
    [InlineData("count=-1")]
    [InlineData("count=1000001")]
    [InlineData("count=ten&format=msgpack")]
    [InlineData("count=1000001&format=protobuf")]
    public async Task AnswersABadCountWithAProblemInJsonWhateverTheFormat(string query)
    {
        using var response = await server.Client.GetAsync(BaselinePath + "?" + query);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        Assert.Contains("count", problem.RootElement.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(MalformedBodies))]
    public async Task RejectsABodyTheModelCannotHoldWith400(string body, string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;

        using var response = await PostBaselineAsync(format, MalformedPayloads.Named(body, format));

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        await server.AssertStillServingAsync(BaselinePath + "?count=5&format=msgpack");
    }

    // Each row: a body (MalformedPayloads.Named), its format, and MVC's status for it. MessagePack's and protobuf-net's
    // readers replace invalid UTF-8 where System.Text.Json refuses it; MVC's JSON defaults (JsonSerializerDefaults.Web)
    // read "5" as the number 5, where the streamed decoder holds every number to its JSON type.
    [Theory]
    [InlineData("invalid UTF-8", "json", 400)]
    [InlineData("invalid UTF-8", "msgpack", 200)]
    [InlineData("invalid UTF-8", "protobuf", 200)]
    [InlineData("""{"id":"5","tags":[],"members":[]}""", "json", 200)]
    public async Task AnswersAsItsLibraryReadsABodyTheStreamedUploadRefuses(string body, string formatKey, int mvcStatus)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var bytes = MalformedPayloads.Named(body, format);

        using var streamed = await HttpPayloads.UploadAsync(server.Client, format, bytes);
        using var baseline = await PostBaselineAsync(format, bytes);

        using var problem = await HttpPayloads.AssertProblemAsync(streamed, 400);
        Assert.Equal(mvcStatus, (int)baseline.StatusCode);
    }

    [Theory]
    [InlineData("text/csv")]
    [InlineData(WireMediaTypes.MessagePack)]
    [InlineData(WireMediaTypes.MessagePackShort)]
    public async Task AnswersAContentTypeNoStockFormatterReadsWith415(string contentType)
    {
        using var response = await HttpPayloads.PostAsync(server.Client, BaselinePath, [0x90], contentType);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 415);
    }

    [Theory]
    [InlineData("get", "200", new[] { WireMediaTypes.Json, WireMediaTypes.XMessagePack, WireMediaTypes.Protobuf, WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf })]
    [InlineData("post", "200", new[] { WireMediaTypes.Json })]
    public async Task ListsTheBaselineUnderItsOwnSwaggerTag(string method, string status, string[] mediaTypes)
    {
        using var document = JsonDocument.Parse(await server.Client.GetStringAsync("/swagger/v1/swagger.json"));

        var operation = document.RootElement.GetProperty("paths").GetProperty(BaselinePath).GetProperty(method);

        Assert.Equal([BaselineApi.Tag], operation.GetProperty("tags").EnumerateArray().Select(tag => tag.GetString()));
        Assert.Equal(mediaTypes, operation.GetProperty("responses").GetProperty(status).GetProperty("content").EnumerateObject().Select(type => type.Name));
    }

    [Fact]
    public async Task GivesSwaggerUiASmallCountToTryTheBaselineWith()
    {
        using var document = JsonDocument.Parse(await server.Client.GetStringAsync("/swagger/v1/swagger.json"));

        var get = document.RootElement.GetProperty("paths").GetProperty(BaselinePath).GetProperty("get");

        var count = get.GetProperty("parameters").EnumerateArray().Single(p => p.GetProperty("name").GetString() == "count");
        Assert.Equal(10, count.GetProperty("example").GetInt32());
    }

    private static void AssertAnswer(HttpResponseMessage response, int status, string? mediaType)
    {
        Assert.Equal(status, (int)response.StatusCode);
        Assert.Equal(mediaType ?? WireMediaTypes.ProblemJson, response.Content.Headers.ContentType?.MediaType);
    }

    private async Task<(HttpStatusCode Status, string? MediaType, string Sha256)> HashAsync(string path)
    {
        using var response = await server.Client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead);
        return (response.StatusCode, response.Content.Headers.ContentType?.MediaType, await HttpPayloads.Sha256Async(await response.Content.ReadAsStreamAsync()));
    }

    private Task<HttpResponseMessage> PostBaselineAsync(WireFormat format, byte[] body) =>
        HttpPayloads.PostAsync(server.Client, BaselinePath, body, BaselineContract.Sent[format]);

    private async Task<UploadSummary> UploadAsync(string path, WireFormat format, byte[] body)
    {
        using var response = await HttpPayloads.PostAsync(server.Client, path, body, HttpPayloads.ContentType(path, format));
        return await HttpPayloads.AssertSummaryAsync(response);
    }
}
