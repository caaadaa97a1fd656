using Grpc.Core;
using ProtoBuf.Grpc;
using WebSerialization.Models;
using WebSerialization.Models.Grpc;
using WebSerialization.Tests.Support;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// gRPC's message limits and the upload limits, on a server whose limits are small (1,000 members, 64 KB messages
/// each way, 500 members an upload): each refusal is <c>RESOURCE_EXHAUSTED</c> naming the setting to change, and
/// the server answers the next call.
/// </summary>
[Collection(LimitedApiCollection.Name)]
public sealed class GrpcLimitTests(LimitedApiServer server)
{
    [Fact]
    public async Task UnaryAnswerOverTheSendLimitNamesTheSettingWhileTheStreamStillServesIt()
    {
        using var channel = GrpcClients.Channel(server);
        var service = GrpcClients.Organization(channel);

        var exception = await Assert.ThrowsAsync<RpcException>(async () => await service.GetOrganizationAsync(new OrganizationRequest()));

        Assert.Equal(StatusCode.ResourceExhausted, exception.StatusCode);
        Assert.Contains("Grpc:MaxSendMessageBytes (65536 bytes)", exception.Status.Detail, StringComparison.Ordinal);
        var streamed = 0;
        await foreach (var part in service.StreamOrganizationAsync(new OrganizationRequest()))
        {
            streamed += part.Members?.Count ?? 0;
        }

        Assert.Equal(1000, streamed);
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
        var exception = await Assert.ThrowsAsync<RpcException>(async () => await service.UploadOrganizationAsync(Parts(batch, batches), context));

        Assert.Equal(StatusCode.ResourceExhausted, exception.StatusCode);
        Assert.Contains(setting, exception.Status.Detail, StringComparison.Ordinal);
        var next = await service.GetOrganizationAsync(new OrganizationRequest { Count = 5 });
        OrganizationAssert.Equal(server.Expected, 5, next);
    }

    private async IAsyncEnumerable<OrganizationPart> Parts(int batch, int batches)
    {
        yield return new OrganizationPart { Id = server.Expected.Id, Tags = server.Expected.Tags };
        for (var index = 0; index < batches; index++)
        {
            await Task.Yield();
            yield return new OrganizationPart { Members = server.Expected.Members!.GetRange(index * batch, batch) };
        }
    }
}
