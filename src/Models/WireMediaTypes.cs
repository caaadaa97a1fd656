namespace WebSerialization.Models;

/// <summary>
/// Media type names of every format, in one place. The first name of each format is the one the server sends;
/// the others are aliases it accepts (and echoes back when a client asked for one).
/// </summary>
public static class WireMediaTypes
{
    /// <summary>JSON (RFC 8259).</summary>
    public const string Json = "application/json";

    /// <summary>JSON alias.</summary>
    public const string TextJson = "text/json";

    /// <summary>MessagePack, the IANA-registered name.</summary>
    public const string MessagePack = "application/vnd.msgpack";

    /// <summary>MessagePack alias sent by most .NET libraries.</summary>
    public const string XMessagePack = "application/x-msgpack";

    /// <summary>MessagePack alias.</summary>
    public const string MessagePackShort = "application/msgpack";

    /// <summary>Protocol Buffers, the registered name.</summary>
    public const string Protobuf = "application/protobuf";

    /// <summary>Protocol Buffers alias.</summary>
    public const string XProtobuf = "application/x-protobuf";

    /// <summary>Protocol Buffers alias.</summary>
    public const string GoogleProtobuf = "application/vnd.google.protobuf";

    /// <summary>This project's own binary format (a vendor type, RFC 6838).</summary>
    public const string Binary = "application/vnd.webserialization.binary";

    /// <summary>Problem details (RFC 9457).</summary>
    public const string ProblemJson = "application/problem+json";
}
