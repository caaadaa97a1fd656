using CodedInputStream = Google.Protobuf.CodedInputStream;
using ProtoWireFormat = Google.Protobuf.WireFormat;
using WebSerialization.Api.Organizations;

namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class OrganizationUploadTests(ApiServer server)
{
    private const int SmallCount = 1000;

    public static TheoryData<WireFormat, WireFormat> FormatPairs() => TheoryRows.Of(from source in WireFormat.All from target in WireFormat.All select (source, target));

    public static TheoryData<WireFormat, string> EveryNameOfEveryFormat() => TheoryRows.Of(
        WireFormat.All.SelectMany(format => HttpPayloads.MediaTypeNames([format]).Select(mediaType => (format, mediaType)))
            .Concat([(WireFormat.Json, "application/json; charset=utf-8"), (WireFormat.Protobuf, "APPLICATION/X-PROTOBUF")]));

    [Theory]
    [MemberData(nameof(EveryNameOfEveryFormat))]
    public async Task ReadsAnUploadUnderEveryNameAndAliasOfItsFormatKeepingEveryValue(WireFormat format, string contentType)
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, format, SmallCount);

        using var response = await HttpPayloads.PostAsync(server.Client, "/api/organization", body, contentType);

        var summary = await HttpPayloads.AssertSummaryAsync(response);
        Assert.Equal(format.Key, summary.Format);
        Assert.Equal(SmallCount, summary.MemberCount);
        Assert.Equal(5, summary.TagCount);
        Assert.Equal(body.Length, summary.BytesRead);
        Assert.Equal(OrganizationChecksum.Compute(server.ExpectedFirst(SmallCount)), summary.Checksum);
    }

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task StreamsTheMillionMemberDownloadStraightBackIntoAnUpload(WireFormat format)
    {
        using var download = await server.Client.GetAsync($"/api/organization?format={format.Key}", HttpCompletionOption.ResponseHeadersRead);
        using var content = new StreamContent(await download.Content.ReadAsStreamAsync()) { Headers = { ContentType = new(format.MediaType) } };

        using var response = await server.Client.PostAsync("/api/organization", content);

        var summary = await HttpPayloads.AssertSummaryAsync(response);
        Assert.Equal(OrganizationGenerator.ArticleMemberCount, summary.MemberCount);
        Assert.Equal(OrganizationChecksum.Compute(server.Expected), summary.Checksum);
    }

    [Theory]
    [MemberData(nameof(FormatPairs))]
    public async Task ConvertsEveryFormatIntoEveryOtherExactlyAsTheGetServesIt(WireFormat from, WireFormat to)
    {
        var input = await HttpPayloads.DownloadAsync(server.Client, from, SmallCount);
        var expected = await HttpPayloads.DownloadAsync(server.Client, to, SmallCount);

        using var response = await HttpPayloads.PostAsync(server.Client, "/api/organization/convert", input, from.MediaType, to.MediaType);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(to.MediaType, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(expected, await response.Content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task ConvertsTheMillionMembersFromJsonToProtobufByteForByte()
    {
        using var json = await server.Client.GetAsync("/api/organization?format=json", HttpCompletionOption.ResponseHeadersRead);
        using var request = new HttpRequestMessage(HttpMethod.Post, "/api/organization/convert")
        {
            Content = new StreamContent(await json.Content.ReadAsStreamAsync()) { Headers = { ContentType = new(WireMediaTypes.Json) } },
            Headers = { Accept = { new(WireMediaTypes.Protobuf) } },
        };

        using var converted = await server.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        using var direct = await server.Client.GetAsync("/api/organization?format=protobuf", HttpCompletionOption.ResponseHeadersRead);

        Assert.Equal(HttpStatusCode.OK, converted.StatusCode);
        Assert.Equal(
            await HttpPayloads.Sha256Async(await direct.Content.ReadAsStreamAsync()),
            await HttpPayloads.Sha256Async(await converted.Content.ReadAsStreamAsync()));
    }

    [Fact]
    public async Task AnswersTheSummaryInProtobufWhenAsked()
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, 10);

        using var response = await HttpPayloads.PostAsync(server.Client, "/api/organization", body, WireMediaTypes.Binary, WireMediaTypes.XProtobuf);

        Assert.Equal(WireMediaTypes.XProtobuf, response.Content.Headers.ContentType?.MediaType);
        var input = new CodedInputStream(await response.Content.ReadAsByteArrayAsync());
        var fields = new Dictionary<int, object>();
        for (uint tag; (tag = input.ReadTag()) != 0;)
        {
            var number = ProtoWireFormat.GetTagFieldNumber(tag);
            fields[number] = number switch
            {
                1 or 6 => input.ReadString(),
                2 or 3 => input.ReadInt32(),
                4 => input.ReadInt64(),
                5 => input.ReadDouble(),
                _ => throw new InvalidDataException($"Unexpected field {number}"),
            };
        }

        Assert.Equal("binary", fields[1]);
        Assert.Equal(10, fields[2]);
        Assert.Equal(5, fields[3]);
        Assert.Equal((long)body.Length, fields[4]);
        Assert.Equal(OrganizationChecksum.Compute(server.ExpectedFirst(10)), fields[6]);
    }

    [Fact]
    public async Task AnswersTheSummaryInMessagePackWhenAsked()
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Json, 10);

        using var response = await HttpPayloads.PostAsync(server.Client, "/api/organization", body, WireMediaTypes.Json, WireMediaTypes.MessagePack);

        Assert.Equal(WireMediaTypes.MessagePack, response.Content.Headers.ContentType?.MediaType);
        var bytes = await response.Content.ReadAsByteArrayAsync();
        Assert.Equal(0x96, bytes[0]); // fixarray of 6
        Assert.Equal([0xa4, (byte)'j', (byte)'s', (byte)'o', (byte)'n', 0x0a, 0x05], bytes[1..8]); // "json", 10 members, 5 tags
    }

    [Fact]
    public async Task RefusesASummaryInTheBinaryFormatWithNotAcceptable()
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Json, 1);

        using var response = await HttpPayloads.PostAsync(server.Client, "/api/organization", body, WireMediaTypes.Json, WireMediaTypes.Binary);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 406);
        var offered = UploadSummaryResult.Formats;
        Assert.Equal(["json", "msgpack", "protobuf"], offered.Select(format => format.Key));
        HttpPayloads.AssertSupportedMediaTypes(problem, offered);
        Assert.Equal(offered.Select(format => format.Key), problem.RootElement.GetProperty("formatKeys").EnumerateArray().Select(e => e.GetString()!));
    }

    [Theory]
    [InlineData("/api/organization", WireMediaTypes.ProblemJson + ", " + WireMediaTypes.XProtobuf, WireMediaTypes.XProtobuf)]
    [InlineData("/api/organization/convert", WireMediaTypes.ProblemJson + ", " + WireMediaTypes.Binary, WireMediaTypes.Binary)]
    [InlineData("/api/organization", WireMediaTypes.ProblemJson, null)]
    [InlineData("/api/organization/convert", WireMediaTypes.ProblemJson, null)]
    public async Task NegotiatesUploadAnswersFromTheTableAlone(string path, string accept, string? expectedContentType)
    {
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Json, 1);

        using var response = await HttpPayloads.PostAsync(server.Client, path, body, WireMediaTypes.Json, accept);

        using var problem = expectedContentType is null ? await HttpPayloads.AssertProblemAsync(response, 406) : null;
        Assert.Equal(expectedContentType is null ? HttpStatusCode.NotAcceptable : HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedContentType ?? WireMediaTypes.ProblemJson, response.Content.Headers.ContentType?.MediaType);
    }
}
