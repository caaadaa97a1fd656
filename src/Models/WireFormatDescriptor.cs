namespace WebSerialization.Models;

/// <summary>How one <see cref="WireFormat"/> is named on the wire.</summary>
/// <param name="Format">The format.</param>
/// <param name="Key">The value of the <c>?format=</c> query parameter that selects it.</param>
/// <param name="MediaType">The media type the server sends by default.</param>
/// <param name="Aliases">
/// Other media types that name the same format: the whole list. A media type that is neither <paramref name="MediaType"/>
/// nor an alias names no format, however it is spelled (<c>application/problem+json</c> is not JSON data).
/// </param>
public sealed record WireFormatDescriptor(WireFormat Format, string Key, string MediaType, IReadOnlyList<string> Aliases)
{
    /// <summary>Every format, JSON first (JSON is the default when a client does not choose).</summary>
    public static IReadOnlyList<WireFormatDescriptor> All { get; } =
    [
        new(WireFormat.Json, "json", WireMediaTypes.Json, [WireMediaTypes.TextJson]),
        new(WireFormat.MessagePack, "msgpack", WireMediaTypes.MessagePack, [WireMediaTypes.XMessagePack, WireMediaTypes.MessagePackShort]),
        new(WireFormat.Protobuf, "protobuf", WireMediaTypes.Protobuf, [WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf]),
        new(WireFormat.Binary, "binary", WireMediaTypes.Binary, []),
    ];

    /// <summary>The descriptor of <paramref name="format"/>.</summary>
    public static WireFormatDescriptor Of(WireFormat format) => All[(int)format];
}
