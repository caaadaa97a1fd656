namespace WebSerialization.Api.GrpcService;

/// <summary>Configuration section <c>Grpc</c>: the gRPC endpoint and its limits.</summary>
public sealed class GrpcOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "Grpc";

    /// <summary>The h2c (HTTP/2 without TLS) port gRPC listens on, beside the HTTP/1.1 API's own; 0 picks a free one.</summary>
    public int Port { get; set; } = 8081;

    /// <summary>
    /// Largest message the server sends, in bytes. gRPC's default is 4 MB; the million-member unary answer is about
    /// 87 MB, so the default here is 128 MiB. A unary answer over it is <c>RESOURCE_EXHAUSTED</c>, naming this setting.
    /// </summary>
    public int MaxSendMessageBytes { get; set; } = 128 * 1024 * 1024;

    /// <summary>
    /// Largest message the server reads, in bytes (one part of an upload). A part over it is
    /// <c>RESOURCE_EXHAUSTED</c>, naming this setting.
    /// </summary>
    public int MaxReceiveMessageBytes { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// Members per message of <c>StreamOrganization</c>. 4000 (about 350 KB a message) had the shortest stream of 1000,
    /// 4000 and 16000 in the load runner (docs/results/grpc.md beside grpc-batch-N.md; tests/Load/README.md has the
    /// commands): smaller messages pay gRPC's cost per message more often, larger ones wait longer on HTTP/2 flow control.
    /// </summary>
    public int BatchSize { get; set; } = 4000;

    /// <summary>
    /// Writes the organization's messages with protobuf-net.Grpc's own marshaller instead of
    /// <c>OrganizationMarshallerFactory</c>'s, to measure one against the other (docs/performance.md). protobuf-net
    /// drops a -0.0 value, so leave it off otherwise.
    /// </summary>
    public bool UseProtobufNetMarshaller { get; set; }

    /// <summary>The configuration key of a property, for messages that name the setting to change.</summary>
    public static string Key(string property) => $"{Section}:{property}";
}
