using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;
using WebSerialization.Api.Transport;
using WebSerialization.Models;

namespace WebSerialization.IntegrationTests;

/// <summary>The switches that production configuration may turn off.</summary>
public sealed class ConfigurationSwitchTests(SwitchedOffApiServer server) : IClassFixture<SwitchedOffApiServer>
{
    [Theory]
    [InlineData("/swagger")]
    [InlineData("/swagger/index.html")]
    [InlineData("/swagger/v1/swagger.json")]
    public async Task HidesSwaggerWhenSwitchedOff(string path)
    {
        using var response = await server.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task LeavesSwaggerOutOfTheLinksThePageShowsWhenSwitchedOff()
    {
        using var service = System.Text.Json.JsonDocument.Parse(await server.Client.GetStringAsync("/api/service"));

        Assert.Equal(System.Text.Json.JsonValueKind.Null, service.RootElement.GetProperty("links").GetProperty("swagger").ValueKind);
        Assert.Equal(100, service.RootElement.GetProperty("memberCount").GetInt32());
    }

    [Theory]
    [InlineData("GET")]
    [InlineData("POST")]
    public async Task HidesTheMvcBaselineWhenSwitchedOff(string method)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), "/api/mvc/organization?count=10");
        if (method == "POST")
        {
            request.Content = new ByteArrayContent("{}"u8.ToArray()) { Headers = { ContentType = new("application/json") } };
        }

        using var response = await server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task SendsUncompressedBodiesWhenCompressionIsSwitchedOff()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/organization?count=100");
        request.Headers.AcceptEncoding.ParseAdd("br, gzip");

        using var response = await server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(response.Content.Headers.ContentEncoding);
        Assert.DoesNotContain("Accept-Encoding", response.Headers.Vary);
    }

    [Fact]
    public async Task ReceivesIntoKestrelsOwnPoolWhenSocketBlocksAreSwitchedOff()
    {
        using var pool = server.Services.GetRequiredService<IMemoryPoolFactory<byte>>().Create();
        var format = WireFormat.All.Single(f => f.Key == "json");
        var body = await HttpPayloads.DownloadAsync(server.Client, format, 100);

        using var response = await HttpPayloads.UploadAsync(server.Client, format, body);

        Assert.IsNotType<LargeBlockMemoryPool>(pool);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(100, (await HttpPayloads.ReadSummaryAsync(response)).MemberCount);
    }

    [Fact]
    public async Task StillServesTheApiAndHealth()
    {
        using var health = await server.Client.GetAsync("/healthz");

        Assert.Equal(HttpStatusCode.OK, health.StatusCode);
    }
}
