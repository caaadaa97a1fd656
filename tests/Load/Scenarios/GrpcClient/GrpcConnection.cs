using Grpc.Core;
using Grpc.Net.Client;
using ProtoBuf;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Load.Scenarios.GrpcClient;

/// <summary>
/// One gRPC channel to the server's h2c endpoint, shared by every copy as a real client shares its channel (calls are
/// HTTP/2 streams on one connection), with no message size limit: a million members are about 87 MB as one message.
/// The answers are counted, not decoded, as the HTTP scenarios drain bodies without decoding them: each message is
/// read by a marshaller that returns its length, so the figures are the server's and the transport's, not the cost
/// of building a million objects in the client.
/// </summary>
public sealed class GrpcConnection : IDisposable
{
    /// <summary>The gRPC port a server listens on unless configured otherwise (<c>Grpc:Port</c>).</summary>
    public const int DefaultPort = 8081;

    private const string Service = "webserialization.OrganizationService";

    private static readonly Marshaller<OrganizationRequest> RequestMarshaller = Marshallers.Create(
        request =>
        {
            using var buffer = new MemoryStream();
            Serializer.Serialize(buffer, request);
            return buffer.ToArray();
        },
        bytes => Serializer.Deserialize<OrganizationRequest>(bytes.AsSpan()));

    private static readonly Marshaller<MessageLength> Length = new(
        (_, _) => throw new NotSupportedException("The load client only reads answers."),
        context => new MessageLength(context.PayloadLength));

    private readonly GrpcChannel _channel;
    private readonly CallInvoker _invoker;

    public GrpcConnection(Uri address)
    {
        _channel = GrpcChannel.ForAddress(address, new GrpcChannelOptions
        {
            MaxReceiveMessageSize = null,
            MaxSendMessageSize = null,
            HttpHandler = new SocketsHttpHandler { UseProxy = false, ConnectTimeout = TimeSpan.FromSeconds(10) },
        });
        _invoker = _channel.CreateCallInvoker();
    }

    /// <summary><c>GetOrganization</c>, answering the length of the organization message.</summary>
    public static Method<OrganizationRequest, MessageLength> GetOrganization { get; } =
        new(MethodType.Unary, Service, "GetOrganization", RequestMarshaller, Length);

    /// <summary><c>StreamOrganization</c>, answering the length of each part.</summary>
    public static Method<OrganizationRequest, MessageLength> StreamOrganization { get; } =
        new(MethodType.ServerStreaming, Service, "StreamOrganization", RequestMarshaller, Length);

    public CallInvoker Invoker => _invoker;

    /// <summary>The gRPC address of a server that was not started by the runner: its host, on <see cref="DefaultPort"/>.</summary>
    public static Uri DefaultAddress(Uri httpAddress) => new UriBuilder(Uri.UriSchemeHttp, httpAddress.Host, DefaultPort).Uri;

    public void Dispose() => _channel.Dispose();

    /// <summary>An answer as the load client reads it: only its length.</summary>
    public sealed record MessageLength(int Bytes);
}
