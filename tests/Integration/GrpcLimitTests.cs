using Grpc.Core;
using ProtoBuf.Grpc;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.IntegrationTests;

// gRPC's message limits and the upload limits on LimitedApiServer: each refusal is RESOURCE_EXHAUSTED naming the
// setting, the server answers the next call, and an upload is refused for the same limit or error, at the same offset,
// as the same bytes posted to /api/organization.
[Collection(LimitedApiCollection.Name)]
public sealed class GrpcLimitTests(LimitedApiServer server)
{
    [Fact]
    public async Task UnaryAnswerOverTheSendLimitNamesTheSettingWhileTheStreamStillServesIt()
    {
        using var channel = GrpcClients.Channel(server);
        var service = GrpcClients.Organization(channel);

        await GrpcClients.AssertRefusedAsync(async () => await service.GetOrganizationAsync(new OrganizationRequest()), StatusCode.ResourceExhausted, "Grpc:MaxSendMessageBytes (65536 bytes)");

        var parts = await service.StreamOrganizationAsync(new OrganizationRequest()).ToListAsync();
        Assert.Equal(1000, parts.Sum(part => part.Members?.Count ?? 0));
    }

    [Theory]
    [InlineData(1000, 1, "Grpc:MaxReceiveMessageBytes (65536 bytes)")]
    [InlineData(100, 6, "Limits:MaxMembers (500)")]
    public async Task UploadOverALimitNamesTheSettingAndTheServerAnswersTheNextCall(int batch, int batches, string setting)
    {
        using var channel = GrpcClients.Channel(server);
        var service = GrpcClients.Organization(channel);

        // Without the flag the client's send loop can meet the closed stream before the status arrives, and throws
        // protobuf-net.Grpc's IncompleteSendRpcException instead of the server's answer.
        var context = new CallContext(flags: CallContextFlags.IgnoreStreamTermination);
        var parts = GrpcClients.Parts(server.ExpectedFirst(batch * batches), batch);
        await GrpcClients.AssertRefusedAsync(async () => await service.UploadOrganizationAsync(parts, context), StatusCode.ResourceExhausted, setting);

        await GrpcClients.AssertAnswersAsync(channel, server, 5);
    }

    [Theory]
    [InlineData("MaxMembers", 500)]
    [InlineData("MaxTags", 5)]
    [InlineData("MaxStringBytes", 64)]
    public async Task AnUploadOverALimitIsRefusedForTheSameLimitAtTheSameOffsetOverHttpAndGrpc(string limit, int allowed)
    {
        var payload = await server.BodyOverAsync(WireFormat.Protobuf, limit);

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Protobuf, payload);
        using var problem = await HttpPayloads.AssertProblemAsync(response, 413);
        var refusal = await GrpcRefusalAsync(GrpcClients.SplitIntoMessages(payload, 16 * 1024), StatusCode.ResourceExhausted);

        Assert.Equal(limit, problem.RootElement.GetProperty("limit").GetString());
        Assert.Equal(limit, refusal.Trailers.GetValue("limit"));
        Assert.Equal(problem.RootElement.GetProperty("offset").GetInt64().ToString(CultureInfo.InvariantCulture), refusal.Trailers.GetValue("offset"));
        Assert.StartsWith(problem.RootElement.GetProperty("detail").GetString()!, refusal.Status.Detail, StringComparison.Ordinal);
        Assert.Contains($"Limits:{limit} ({allowed})", refusal.Status.Detail, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("a tag of invalid UTF-8")]
    [InlineData("the organization's Id as bytes")]
    [InlineData("a payload cut inside a member")]
    [InlineData("a member longer than the message")]
    public async Task AMalformedUploadIsTheSameErrorAtTheSameOffsetOverHttpAndGrpc(string problemCase)
    {
        byte[] payload = problemCase switch
        {
            "a tag of invalid UTF-8" => MalformedPayloads.InvalidUtf8(WireFormat.Protobuf),
            // Field 1 with wire type 2.
            "the organization's Id as bytes" => [0x0A, 0x01, 0x07],
            // Field 3 (Members), length-delimited, declaring 127 bytes where one follows.
            "a member longer than the message" => [0x1A, 0x7F, 0x08],
            _ => (await HttpPayloads.DownloadAsync(server.Client, WireFormat.Protobuf, 10))[..^3],
        };

        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Protobuf, payload);
        using var problem = await HttpPayloads.AssertProblemAsync(response, 400);
        var refusal = await GrpcRefusalAsync([payload], StatusCode.InvalidArgument);

        Assert.Equal(problem.RootElement.GetProperty("offset").GetInt64().ToString(CultureInfo.InvariantCulture), refusal.Trailers.GetValue("offset"));
        var detail = problem.RootElement.GetProperty("detail").GetString()!;
        Assert.EndsWith(detail[detail.IndexOf(": ", StringComparison.Ordinal)..], refusal.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnUploadMessageThatEndsInsideAFieldIsInvalidArgumentEvenWhenTheNextCompletesIt()
    {
        // Each message is an OrganizationPart, whole fields: a member cut between two messages is not one.
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Protobuf, 3);
        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Protobuf, payload);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);

        var refusal = await GrpcRefusalAsync([payload[..^5], payload[^5..]], StatusCode.InvalidArgument);

        Assert.Equal((payload.Length - 5).ToString(CultureInfo.InvariantCulture), refusal.Trailers.GetValue("offset"));
    }

    // The server's refusal of an upload of messages as bytes, after which it still answers a call.
    private async Task<RpcException> GrpcRefusalAsync(IEnumerable<byte[]> messages, StatusCode status)
    {
        using var channel = GrpcClients.Channel(server);
        var refusal = await GrpcClients.AssertRefusedAsync(() => GrpcClients.RawUploadAsync(channel, messages), status);
        await GrpcClients.AssertAnswersAsync(channel, server, 2);
        return refusal;
    }
}
