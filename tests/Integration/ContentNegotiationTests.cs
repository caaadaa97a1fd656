using System.Net;
using System.Text.Json;
using WebSerialization.Models;

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
    [InlineData("application/vnd.api+json", WireMediaTypes.Json)]
    [InlineData("application/vnd.msgpack", WireMediaTypes.MessagePack)]
    [InlineData("application/x-msgpack", WireMediaTypes.XMessagePack)]
    [InlineData("application/msgpack", WireMediaTypes.MessagePackShort)]
    [InlineData("application/protobuf", WireMediaTypes.Protobuf)]
    [InlineData("application/x-protobuf", WireMediaTypes.XProtobuf)]
    [InlineData("application/vnd.google.protobuf", WireMediaTypes.GoogleProtobuf)]
    [InlineData("application/vnd.webserialization.binary", WireMediaTypes.Binary)]
    [InlineData("APPLICATION/X-PROTOBUF", WireMediaTypes.XProtobuf)]
    [InlineData("application/json; charset=utf-8", WireMediaTypes.Json)]
    // A named type beats */* (MVC would answer JSON to both of these).
    [InlineData("application/x-msgpack, */*;q=0.1", WireMediaTypes.XMessagePack)]
    [InlineData("*/*;q=0.1, application/x-msgpack", WireMediaTypes.XMessagePack)]
    [InlineData("text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8", WireMediaTypes.Json)]
    // The highest q wins; ties go to the client's order.
    [InlineData("application/json;q=0.5, application/protobuf;q=0.9", WireMediaTypes.Protobuf)]
    [InlineData("application/vnd.webserialization.binary;q=0.4, application/msgpack;q=0.4", WireMediaTypes.Binary)]
    [InlineData("application/msgpack;q=0.4, application/vnd.webserialization.binary;q=0.4", WireMediaTypes.MessagePackShort)]
    [InlineData("application/protobuf;q=0.2, */*;q=0.5", WireMediaTypes.Json)]
    // q=0 means "not this", even when a wildcard would allow it.
    [InlineData("application/json;q=0, */*", WireMediaTypes.MessagePack)]
    [InlineData("application/json;q=0, application/vnd.msgpack;q=0, */*;q=0.3", WireMediaTypes.Protobuf)]
    // Nothing acceptable.
    [InlineData("text/html", null)]
    [InlineData("application/xml, image/png", null)]
    [InlineData("application/protobuf;q=0", null)]
    [InlineData("*/*;q=0", null)]
    [InlineData("text/*", null)]
    public async Task NegotiatesTheResponseFormatFromAccept(string? accept, string? expectedContentType)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/organization?count=1");
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        using var response = await server.Client.SendAsync(request);

        Assert.Contains("Accept", response.Headers.Vary);
        if (expectedContentType is null)
        {
            await AssertNotAcceptableAsync(response);
            return;
        }

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedContentType, response.Content.Headers.ContentType?.MediaType);
    }

    [Theory]
    [InlineData("json", WireMediaTypes.Json)]
    [InlineData("msgpack", WireMediaTypes.MessagePack)]
    [InlineData("protobuf", WireMediaTypes.Protobuf)]
    [InlineData("binary", WireMediaTypes.Binary)]
    [InlineData("MsgPack", WireMediaTypes.MessagePack)]
    public async Task FormatQueryOverridesAccept(string format, string expectedContentType)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/organization?count=1&format={format}");
        request.Headers.TryAddWithoutValidation("Accept", "application/json, text/html");

        using var response = await server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expectedContentType, response.Content.Headers.ContentType?.MediaType);
    }

    [Theory]
    [InlineData("xml")]
    [InlineData("")]
    [InlineData("json2")]
    public async Task AnswersAnUnknownFormatKeyWithNotAcceptable(string format)
    {
        using var response = await server.Client.GetAsync($"/api/organization?count=1&format={format}");

        await AssertNotAcceptableAsync(response);
    }

    private static async Task AssertNotAcceptableAsync(HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.NotAcceptable, response.StatusCode);
        Assert.Equal(WireMediaTypes.ProblemJson, response.Content.Headers.ContentType?.MediaType);
        using var problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var supported = problem.RootElement.GetProperty("supportedMediaTypes").EnumerateArray().Select(e => e.GetString()).ToArray();
        foreach (var descriptor in WireFormatDescriptor.All)
        {
            Assert.Contains(descriptor.MediaType, supported);
        }
    }
}
