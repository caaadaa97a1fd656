namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class ContentNegotiationTests(ApiServer server)
{
    [Theory]
    // No Accept, or only wildcards: JSON.
    [InlineData(null, WireMediaTypes.Json)]
    [InlineData("*/*", WireMediaTypes.Json)]
    [InlineData("application/*", WireMediaTypes.Json)]
    // Every name and alias, echoed back as asked.
    [InlineData("application/json", WireMediaTypes.Json)]
    [InlineData("text/json", WireMediaTypes.TextJson)]
    [InlineData("application/vnd.msgpack", WireMediaTypes.MessagePack)]
    [InlineData("application/x-msgpack", WireMediaTypes.XMessagePack)]
    [InlineData("application/msgpack", WireMediaTypes.MessagePackShort)]
    [InlineData("application/protobuf", WireMediaTypes.Protobuf)]
    [InlineData("application/x-protobuf", WireMediaTypes.XProtobuf)]
    [InlineData("application/vnd.google.protobuf", WireMediaTypes.GoogleProtobuf)]
    [InlineData("application/vnd.webserialization.binary", WireMediaTypes.Binary)]
    [InlineData("APPLICATION/X-PROTOBUF", WireMediaTypes.XProtobuf)]
    // Parameters other than q are ignored, and the Content-Type goes back without them.
    [InlineData("application/json; charset=utf-8", WireMediaTypes.Json)]
    [InlineData("application/json; charset=utf-16", WireMediaTypes.Json)]
    [InlineData("application/vnd.msgpack; version=2", WireMediaTypes.MessagePack)]
    [InlineData("application/json;charset=utf-8;q=0, */*", WireMediaTypes.MessagePack)]
    // Only the table's names and aliases select a format: a +json type is not our JSON.
    [InlineData("application/problem+json, application/protobuf", WireMediaTypes.Protobuf)]
    [InlineData("application/problem+json, */*;q=0.1", WireMediaTypes.Json)]
    [InlineData("application/problem+json", null)]
    [InlineData("application/vnd.api+json", null)]
    [InlineData("application/*+json", null)]
    [InlineData("application/json-seq, application/x-json", null)]
    // A named type beats */* (MVC would answer JSON to both of these).
    [InlineData("application/x-msgpack, */*;q=0.1", WireMediaTypes.XMessagePack)]
    [InlineData("*/*;q=0.1, application/x-msgpack", WireMediaTypes.XMessagePack)]
    [InlineData("text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8", WireMediaTypes.Json)]
    // The highest q wins; ties go to a named type over a wildcard, then the client's order, then the server's.
    [InlineData("application/json;q=0.5, application/protobuf;q=0.9", WireMediaTypes.Protobuf)]
    [InlineData("application/vnd.webserialization.binary;q=0.4, application/msgpack;q=0.4", WireMediaTypes.Binary)]
    [InlineData("application/msgpack;q=0.4, application/vnd.webserialization.binary;q=0.4", WireMediaTypes.MessagePackShort)]
    [InlineData("application/msgpack, application/vnd.msgpack", WireMediaTypes.MessagePackShort)]
    [InlineData("application/*;q=0.5, application/protobuf;q=0.5", WireMediaTypes.Protobuf)]
    [InlineData("application/protobuf;q=0.2, */*;q=0.5", WireMediaTypes.Json)]
    // The most specific range decides a type's q, wherever it stands.
    [InlineData("application/*;q=0.9, application/json;q=0.1", WireMediaTypes.MessagePack)]
    [InlineData("*/*;q=0.2, application/*;q=0.6, application/vnd.msgpack;q=0.4", WireMediaTypes.Json)]
    // The same range twice: its highest q counts, whichever comes first.
    [InlineData("application/protobuf;q=0, application/protobuf;q=0.5", WireMediaTypes.Protobuf)]
    [InlineData("application/protobuf;q=0.5, application/protobuf;q=0", WireMediaTypes.Protobuf)]
    [InlineData("application/json;q=0.2, application/msgpack;q=0.5, application/json;q=0.9", WireMediaTypes.Json)]
    [InlineData("APPLICATION/JSON;q=0, application/json;q=0.3, application/msgpack;q=0.2", WireMediaTypes.Json)]
    // Wildcards stand for the primary types only: text/* does not reach the text/json alias.
    [InlineData("text/*, application/json;q=0.1", WireMediaTypes.Json)]
    [InlineData("text/*, text/json;q=0.1", WireMediaTypes.TextJson)]
    // q=0 means "not this", even when a wildcard would allow it.
    [InlineData("application/json;q=0, */*", WireMediaTypes.MessagePack)]
    [InlineData("application/json;q=0, application/vnd.msgpack;q=0, */*;q=0.3", WireMediaTypes.Protobuf)]
    // An entry that does not parse is skipped; a header with no entry that parses counts as absent.
    [InlineData("application/protobuf, not a media type", WireMediaTypes.Protobuf)]
    [InlineData("application/protobuf, @@@", WireMediaTypes.Protobuf)]
    [InlineData("@@@", WireMediaTypes.Json)]
    // Nothing acceptable.
    [InlineData("text/html", null)]
    [InlineData("application/xml, image/png", null)]
    [InlineData("application/protobuf;q=0", null)]
    [InlineData("*/*;q=0", null)]
    [InlineData("text/*", null)]
    public async Task NegotiatesTheResponseFormatFromAccept(string? accept, string? expectedContentType)
    {
        using var response = await HttpPayloads.GetAsync(server.Client, "/api/organization?count=1", accept);

        Assert.Contains("Accept", response.Headers.Vary);
        await AssertAnswerAsync(response, expectedContentType);
    }

    [Theory]
    [InlineData("json", WireMediaTypes.Json)]
    [InlineData("msgpack", WireMediaTypes.MessagePack)]
    [InlineData("protobuf", WireMediaTypes.Protobuf)]
    [InlineData("binary", WireMediaTypes.Binary)]
    [InlineData("MsgPack", WireMediaTypes.MessagePack)]
    // An unknown key is not acceptable, whatever Accept allows.
    [InlineData("xml", null)]
    [InlineData("", null)]
    [InlineData("json2", null)]
    public async Task FormatQueryOverridesAccept(string format, string? expectedContentType)
    {
        using var response = await HttpPayloads.GetAsync(server.Client, $"/api/organization?count=1&format={format}", "application/json, text/html");

        await AssertAnswerAsync(response, expectedContentType);
    }

    // The media type expected, or (null) a 406 problem listing every name and alias of the table of formats: the whole
    // list of media types that select a format.
    private static async Task AssertAnswerAsync(HttpResponseMessage response, string? expectedContentType)
    {
        if (expectedContentType is null)
        {
            using var problem = await HttpPayloads.AssertProblemAsync(response, 406);
            HttpPayloads.AssertSupportedMediaTypes(problem, WireFormat.All);
            return;
        }

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedContentType, response.Content.Headers.ContentType?.MediaType);
    }
}
