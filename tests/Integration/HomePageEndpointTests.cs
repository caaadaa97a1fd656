namespace WebSerialization.IntegrationTests;

/// <summary>The page at / and its files beside the API: served as files, without taking over any path the API answers.</summary>
[Collection(ApiCollection.Name)]
public sealed class HomePageEndpointTests(ApiServer server)
{
    [Theory]
    [InlineData("/", "application/vnd.msgpack")]
    [InlineData("/", "application/json")]
    [InlineData("/index.html", "*/*")]
    public async Task ServesThePageWhateverTheAcceptHeaderAsks(string path, string accept)
    {
        using var response = await HttpPayloads.GetAsync(server.Client, path, accept);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("<title>WebSerialization", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    // A browser runs a module only when it comes with a JavaScript media type.
    [Theory]
    [InlineData("/js/home.mjs")]
    [InlineData("/js/webserialization-binary.mjs")]
    [InlineData("/js/webserialization-binary-writer.mjs")]
    [InlineData("/js/decode-worker.mjs")]
    public async Task ServesTheModulesAsJavaScript(string path)
    {
        using var response = await server.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/javascript", response.Content.Headers.ContentType?.MediaType);
    }

    [Theory]
    [InlineData("/nothing-here")]
    [InlineData("/js/nothing-here.mjs")]
    [InlineData("/api/nothing-here")]
    public async Task AnswersAPathWithNoFileAndNoEndpointWithA404Problem(string path)
    {
        using var response = await server.Client.GetAsync(path);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 404);
    }

    [Fact]
    public async Task DescribesTheLargestCountAndTheLinksThatAreOn()
    {
        using var service = JsonDocument.Parse(await server.Client.GetStringAsync("/api/service"));

        Assert.Equal(OrganizationGenerator.ArticleMemberCount, service.RootElement.GetProperty("memberCount").GetInt32());
        var links = service.RootElement.GetProperty("links");
        Assert.Equal("/api/organization.proto", links.GetProperty("schema").GetString());
        Assert.Equal("/swagger", links.GetProperty("swagger").GetString());
        Assert.Equal(JsonValueKind.Null, links.GetProperty("metrics").ValueKind);
    }
}
