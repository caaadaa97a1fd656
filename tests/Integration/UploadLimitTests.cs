using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using WebSerialization.Models;
using WebSerialization.Tests.Support;

namespace WebSerialization.IntegrationTests;

/// <summary>The configured limits, on a server whose limits are small (<see cref="LimitedApiServer"/>).</summary>
[Collection(LimitedApiCollection.Name)]
public sealed class UploadLimitTests(LimitedApiServer server)
{
    [Fact]
    public async Task RejectsABodyOverTheConfiguredSizeWith413()
    {
        var body = Encoding.UTF8.GetBytes("{\"id\":1,\"tags\":[\"" + new string('a', 300_000) + "\"]}");

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Json, body);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        await AssertStillServingAsync();
    }

    // Format keys rather than formats, so that each row is a test case of its own in a listing.
    public static TheoryData<string, string> FormatsAndLimits()
    {
        var data = new TheoryData<string, string>();
        foreach (var format in WireFormat.All)
        {
            foreach (var limit in new[] { "MaxMembers", "MaxTags", "MaxStringBytes" })
            {
                data.Add(format.Key, limit);
            }
        }

        return data;
    }

    // The server allows 500 members, 5 tags and strings of 64 bytes; each body is over one of them and within the others.
    [Theory]
    [MemberData(nameof(FormatsAndLimits))]
    public async Task RejectsABodyOverEachDecodeLimitNamingIt(string formatKey, string limit)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var body = limit switch
        {
            "MaxMembers" => await HttpPayloads.DownloadAsync(server.Client, format, 1000),
            "MaxTags" => CodecHarness.Encode(format.Codec, new Organization { Id = 1, Tags = ["a", "b", "c", "d", "e", "f"], Members = [] }),
            _ => CodecHarness.Encode(format.Codec, new Organization { Id = 1, Tags = [], Members = [new() { Id = 1, Name = new string('n', 100) }] }),
        };

        using var response = await HttpPayloads.UploadAsync(server.Client, format, body);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        Assert.Equal(limit, problem.RootElement.GetProperty("limit").GetString());
    }

    [Fact]
    public async Task AnswersHeavyRequestsBeyondTheConcurrencyLimitWith429AndRetryAfter()
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Binary, 100);
        using (var holder = await RawSocketClient.SendHalfAnUploadAsync(server.BaseAddress.Port, "/api/organization", WireMediaTypes.Binary, payload))
        {
            // The upload that has sent half its body holds the only heavy permit until it finishes or goes away.
            var stopwatch = Stopwatch.StartNew();
            using var rejected = await server.Client.GetAsync("/api/organization?format=binary");
            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(2), $"The 429 took {stopwatch.Elapsed}.");
            using var problem = await HttpPayloads.AssertProblemAsync(rejected, 429);
            Assert.Equal(TimeSpan.FromSeconds(7), rejected.Headers.RetryAfter?.Delta);

            using var light = await server.Client.GetAsync("/api/organization?count=5&format=binary");
            Assert.Equal(HttpStatusCode.OK, light.StatusCode);
            holder.LingerState = new LingerOption(enable: true, seconds: 0);
        }

        await AssertStillServingAsync();
    }

    private Task AssertStillServingAsync() => server.AssertStillServingAsync("/api/organization?format=json");
}
