namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class OrganizationEndpointTests(ApiServer server)
{
    // A null count is none in the query, which serves every member.
    public static TheoryData<WireFormat, int?> FormatsAndCounts() => TheoryRows.Of(
        from format in WireFormat.All from count in new int?[] { 0, 10, OrganizationGenerator.ArticleMemberCount, null } select (format, count));

    [Theory]
    [MemberData(nameof(FormatsAndCounts))]
    public async Task ServesTheGeneratedMembersInEveryFormat(WireFormat format, int? count)
    {
        var path = count is null ? "/api/organization" : $"/api/organization?count={count}";

        using var response = await HttpPayloads.GetAsync(server.Client, path, format.MediaType, completion: HttpCompletionOption.ResponseHeadersRead);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(format.MediaType, response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("Accept", response.Headers.Vary);
        await using var body = await response.Content.ReadAsStreamAsync();
        var (organization, _) = await OrganizationAssert.DecodeAsync(body, format);
        OrganizationAssert.Equal(server.Expected, count ?? OrganizationGenerator.ArticleMemberCount, organization);
    }

    [Fact]
    public async Task StreamsTheBodyWithoutAContentLength()
    {
        using var response = await server.Client.GetAsync("/api/organization?count=1000", HttpCompletionOption.ResponseHeadersRead);

        Assert.Null(response.Content.Headers.ContentLength);
        Assert.True(response.Headers.TransferEncodingChunked);
    }

    [Theory]
    [InlineData("-1")]
    [InlineData("1000001")]
    [InlineData("abc")]
    [InlineData("1.5")]
    [InlineData("")]
    [InlineData("99999999999")]
    public async Task RejectsACountOutOfRangeWithAProblem(string count)
    {
        using var response = await HttpPayloads.GetAsync(server.Client, $"/api/organization?count={Uri.EscapeDataString(count)}", WireMediaTypes.MessagePack);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        Assert.Contains("count", problem.RootElement.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task ListsTheFormats()
    {
        using var formats = JsonDocument.Parse(await server.Client.GetStringAsync("/api/formats"));

        var listed = formats.RootElement.EnumerateArray()
            .Select(f => (
                f.GetProperty("key").GetString()!,
                f.GetProperty("mediaType").GetString()!,
                string.Join(' ', f.GetProperty("aliases").EnumerateArray().Select(a => a.GetString()))))
            .ToArray();
        Assert.Equal(WireFormat.All.Select(d => (d.Key, d.MediaType, string.Join(' ', d.Aliases))), listed);
        Assert.Equal(["json", "msgpack", "protobuf", "binary"], listed.Select(f => f.Item1));
        Assert.DoesNotContain(listed, f => f.Item3.Contains('*', StringComparison.Ordinal) || f.Item3.Contains("+json", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ServesTheProtobufSchema()
    {
        var schema = await server.Client.GetStringAsync("/api/organization.proto");

        Assert.Contains("message Organization", schema, StringComparison.Ordinal);
        Assert.Contains("repeated Member Members = 3;", schema, StringComparison.Ordinal);
        Assert.Contains("int64 UpdateTime = 6;", schema, StringComparison.Ordinal);
    }

    [Fact]
    public async Task DescribesAllFourMediaTypesInTheOpenApiDocument()
    {
        using var document = JsonDocument.Parse(await server.Client.GetStringAsync("/swagger/v1/swagger.json"));

        var get = document.RootElement.GetProperty("paths").GetProperty("/api/organization").GetProperty("get");
        var content = get.GetProperty("responses").GetProperty("200").GetProperty("content");
        Assert.Equal(
            WireFormat.All.Select(d => d.MediaType).Order(StringComparer.Ordinal),
            content.EnumerateObject().Select(p => p.Name).Order(StringComparer.Ordinal));

        var count = get.GetProperty("parameters").EnumerateArray().Single(p => p.GetProperty("name").GetString() == "count");
        Assert.Equal(10, count.GetProperty("example").GetInt32());
        Assert.Equal(server.Expected.Members!.Count, count.GetProperty("schema").GetProperty("maximum").GetInt32());
    }

    [Theory]
    [InlineData("/api/organization")]
    [InlineData("/api/organization/convert")]
    public async Task DescribesExactlyTheTablesMediaTypesAsUploadBodies(string path)
    {
        using var document = JsonDocument.Parse(await server.Client.GetStringAsync("/swagger/v1/swagger.json"));

        var body = document.RootElement.GetProperty("paths").GetProperty(path).GetProperty("post").GetProperty("requestBody").GetProperty("content");

        Assert.Equal(
            HttpPayloads.MediaTypeNames(WireFormat.All).Order(StringComparer.Ordinal),
            body.EnumerateObject().Select(p => p.Name).Order(StringComparer.Ordinal));
    }

    [Theory]
    [InlineData("/healthz", "text/plain", "Healthy")]
    [InlineData("/swagger/index.html", "text/html", null)]
    public async Task AnswersHealthChecksAndServesSwaggerUi(string path, string mediaType, string? body)
    {
        using var response = await server.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(mediaType, response.Content.Headers.ContentType?.MediaType);
        if (body is not null)
        {
            Assert.Equal(body, await response.Content.ReadAsStringAsync());
        }
    }
}
