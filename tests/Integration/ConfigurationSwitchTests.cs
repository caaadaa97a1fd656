using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;
using WebSerialization.Api.Transport;

namespace WebSerialization.IntegrationTests;

/// <summary>The switches that production configuration may turn off.</summary>
public sealed class ConfigurationSwitchTests(SwitchedOffApiServer server) : IClassFixture<SwitchedOffApiServer>
{
    // Swagger and the MVC baseline are gone, while the API and its health check still answer.
    [Theory]
    [InlineData("GET", "/swagger", HttpStatusCode.NotFound)]
    [InlineData("GET", "/swagger/index.html", HttpStatusCode.NotFound)]
    [InlineData("GET", "/swagger/v1/swagger.json", HttpStatusCode.NotFound)]
    [InlineData("GET", "/api/mvc/organization?count=10", HttpStatusCode.NotFound)]
    [InlineData("POST", "/api/mvc/organization?count=10", HttpStatusCode.NotFound)]
    [InlineData("GET", "/healthz", HttpStatusCode.OK)]
    public async Task HidesSwaggerAndTheMvcBaselineWhenSwitchedOffAndStillServesHealth(string method, string path, HttpStatusCode status)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), path)
        {
            Content = method == "POST" ? new ByteArrayContent("{}"u8.ToArray()) { Headers = { ContentType = new("application/json") } } : null,
        };

        using var response = await server.Client.SendAsync(request);

        Assert.Equal(status, response.StatusCode);
    }

    [Fact]
    public async Task LeavesSwaggerOutOfTheLinksThePageShowsWhenSwitchedOff()
    {
        using var service = JsonDocument.Parse(await server.Client.GetStringAsync("/api/service"));

        Assert.Equal(JsonValueKind.Null, service.RootElement.GetProperty("links").GetProperty("swagger").ValueKind);
        Assert.Equal(100, service.RootElement.GetProperty("memberCount").GetInt32());
    }

    [Fact]
    public async Task SendsUncompressedBodiesWhenCompressionIsSwitchedOff()
    {
        using var response = await HttpPayloads.GetAsync(server.Client, "/api/organization?count=100", acceptEncoding: "br, gzip");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(response.Content.Headers.ContentEncoding);
        Assert.DoesNotContain("Accept-Encoding", response.Headers.Vary);
    }

    [Fact]
    public async Task ReceivesIntoKestrelsOwnPoolWhenSocketBlocksAreSwitchedOff()
    {
        using var pool = server.Services.GetRequiredService<IMemoryPoolFactory<byte>>().Create();
        var body = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Json, 100);

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Json, body);

        Assert.IsNotType<LargeBlockMemoryPool>(pool);
        Assert.Equal(100, (await HttpPayloads.AssertSummaryAsync(response)).MemberCount);
    }
}
