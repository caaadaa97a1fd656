using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using ProtoBuf.Grpc.Client;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.IntegrationTests;

/// <summary>Grpc.Net.Client channels to a test server's h2c endpoint, with protobuf-net.Grpc's code-first client.</summary>
internal static class GrpcClients
{
    /// <summary>A channel that sends and reads messages of any size (a unary answer of a million members among them).</summary>
    public static GrpcChannel Channel(ApiServer server) =>
        GrpcChannel.ForAddress(server.GrpcAddress, new GrpcChannelOptions { MaxReceiveMessageSize = null, MaxSendMessageSize = null });

    /// <summary>The organization service over <paramref name="channel"/>, with the contract's marshallers.</summary>
    public static IOrganizationService Organization(GrpcChannel channel) =>
        channel.CreateGrpcService<IOrganizationService>(ClientFactory.Create(OrganizationMarshallerFactory.Binder));

    /// <summary>Asserts that <paramref name="call"/> fails with <paramref name="status"/> and a detail that contains <paramref name="detail"/>; the server's exception, with its trailers.</summary>
    public static async Task<RpcException> AssertRefusedAsync(Func<Task> call, StatusCode status, string detail = "")
    {
        var exception = await Assert.ThrowsAsync<RpcException>(call);
        Assert.Equal(status, exception.StatusCode);
        Assert.Contains(detail, exception.Status.Detail, StringComparison.Ordinal);
        return exception;
    }

    /// <summary>Asserts that a unary call for the first <paramref name="count"/> members answers them: the server still serves.</summary>
    public static async Task AssertAnswersAsync(GrpcChannel channel, ApiServer server, int count) =>
        OrganizationAssert.Equal(server.Expected, count, await Organization(channel).GetOrganizationAsync(new OrganizationRequest { Count = count }));

    /// <summary><c>UploadOrganization</c> with its messages as bytes, to send what the contract's marshallers would not.</summary>
    public static readonly Method<byte[], byte[]> RawUpload = new(
        MethodType.ClientStreaming, "webserialization.OrganizationService", "UploadOrganization", Marshallers.Create(bytes => bytes, bytes => bytes), Marshallers.Create(bytes => bytes, bytes => bytes));

    // Sends messages as UploadOrganization's request stream, as bytes, and waits for the answer;
    // a refusal is the server's RpcException, with its trailers.
    public static async Task RawUploadAsync(GrpcChannel channel, IEnumerable<byte[]> messages)
    {
        using var call = channel.CreateCallInvoker().AsyncClientStreamingCall(RawUpload, null, default);
        try
        {
            foreach (var message in messages)
            {
                await call.RequestStream.WriteAsync(message);
            }

            await call.RequestStream.CompleteAsync();
        }
        catch (Exception exception) when (exception is RpcException or InvalidOperationException)
        {
            // The server refused the upload before it was all sent: its status is the call's answer, below.
        }

        await call.ResponseAsync;
    }

    /// <summary>An upload's messages: the id and tags, then the members <paramref name="batch"/> at a time.</summary>
    public static async IAsyncEnumerable<OrganizationPart> Parts(Organization organization, int batch)
    {
        yield return new OrganizationPart { Id = organization.Id, Tags = organization.Tags };
        foreach (var members in organization.Members!.Chunk(batch))
        {
            await Task.Yield();
            yield return new OrganizationPart { Members = [.. members] };
        }
    }

    // A protobuf Organization payload cut into upload messages of at most maxBytes bytes
    // each (or one field, if longer), between top-level fields: their bytes concatenated are the payload.
    public static List<byte[]> SplitIntoMessages(byte[] payload, int maxBytes)
    {
        var messages = new List<byte[]>();
        var input = new CodedInputStream(payload);
        var start = 0;
        var end = 0;
        while (input.ReadTag() != 0)
        {
            input.SkipLastField();
            var next = (int)input.Position;
            if (next - start > maxBytes && end > start)
            {
                messages.Add(payload[start..end]);
                start = end;
            }

            end = next;
        }

        messages.Add(payload[start..end]);
        return messages;
    }
}
