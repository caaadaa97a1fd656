using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using WebSerialization.Models.Baseline;
using WebSerialization.Models;
using WebSerialization.Tests.Support;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// The baseline's upload reads the whole body before it decodes anything, so it is held to the same body-size limit
/// and heavy-request limiter as the streamed upload (on <see cref="LimitedApiServer"/>, whose limits are small).
/// </summary>
[Collection(LimitedApiCollection.Name)]
public sealed class BaselineLimitTests(LimitedApiServer server)
{
    private const string BaselinePath = "/" + BaselineContract.Route;

    public static TheoryData<WireFormat> Formats() => [.. BaselineContract.Sent.Keys];

    [Theory]
    [MemberData(nameof(Formats))]
    public async Task RejectsABodyOverTheConfiguredSizeWith413(WireFormat format)
    {
        var body = new byte[300_000];

        using var response = await HttpPayloads.PostAsync(server.Client, BaselinePath, body, BaselineContract.Sent[format]);

        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        await AssertStillServingAsync();
    }

    [Fact]
    public async Task AnswersHeavyRequestsBeyondTheConcurrencyLimitWith429AndRetryAfter()
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.MessagePack, 100);
        using (var holder = await RawSocketClient.SendHalfAnUploadAsync(server.BaseAddress.Port, BaselinePath, WireMediaTypes.XMessagePack, payload))
        {
            // A baseline upload that has sent half its body holds the only heavy permit while MVC's input formatter
            // waits for the rest.
            using var rejected = await server.Client.GetAsync(BaselinePath + "?format=protobuf");
            using var problem = await HttpPayloads.AssertProblemAsync(rejected, 429);
            Assert.Equal(TimeSpan.FromSeconds(7), rejected.Headers.RetryAfter?.Delta);

            using var light = await server.Client.GetAsync(BaselinePath + "?count=5&format=protobuf");
            Assert.Equal(HttpStatusCode.OK, light.StatusCode);
            holder.LingerState = new LingerOption(enable: true, seconds: 0);
        }

        await AssertStillServingAsync();
    }

    private Task AssertStillServingAsync() => server.AssertStillServingAsync(BaselinePath + "?format=json");
}
