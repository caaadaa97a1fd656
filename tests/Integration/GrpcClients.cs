using Grpc.Net.Client;
using ProtoBuf.Grpc.Client;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models.Grpc;

namespace WebSerialization.IntegrationTests;

/// <summary>Grpc.Net.Client channels to a test server's h2c endpoint, with protobuf-net.Grpc's code-first client.</summary>
internal static class GrpcClients
{
    /// <summary>A channel that reads messages of any size the server may send (a million members are about 87 MB).</summary>
    public static GrpcChannel Channel(ApiServer server) =>
        GrpcChannel.ForAddress(server.GrpcAddress, new GrpcChannelOptions { MaxReceiveMessageSize = null, MaxSendMessageSize = null });

    /// <summary>The organization service over <paramref name="channel"/>, with the contract's marshallers.</summary>
    public static IOrganizationService Organization(GrpcChannel channel) =>
        channel.CreateGrpcService<IOrganizationService>(ClientFactory.Create(OrganizationMarshallerFactory.Binder));
}
