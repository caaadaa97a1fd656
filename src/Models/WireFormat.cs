using System.Text.Json.Serialization;
using WebSerialization.Models.Binary;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Json;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Models;

/// <summary>
/// One encoding of an <see cref="Organization"/> that the API serves and accepts, and the table of them: the only place a
/// format is declared. Negotiation, routing metadata, OpenAPI, compression, logs and tests derive what they need from
/// <see cref="All"/>; a new format is a folder with its <see cref="IWireFormatCodec"/> and one row here.
/// </summary>
public sealed class WireFormat
{
    /// <summary>UTF-8 JSON with camelCase names.</summary>
    public static WireFormat Json { get; } = new("json", "JSON", WireMediaTypes.Json, [WireMediaTypes.TextJson], JsonCodec.Instance);

    /// <summary>MessagePack, array-keyed: an Organization is a 3-element array, a Member a 6-element array.</summary>
    public static WireFormat MessagePack { get; } = new(
        "msgpack", "MessagePack", WireMediaTypes.MessagePack, [WireMediaTypes.XMessagePack, WireMediaTypes.MessagePackShort], MessagePackCodec.Instance);

    /// <summary>Protocol Buffers, as described by <c>GET /api/organization.proto</c>.</summary>
    public static WireFormat Protobuf { get; } = new(
        "protobuf", "protobuf", WireMediaTypes.Protobuf, [WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf], ProtobufCodec.Instance);

    /// <summary>This project's own binary format, specified in docs/binary-format.md.</summary>
    public static WireFormat Binary { get; } = new("binary", "binary", WireMediaTypes.Binary, [], BinaryCodec.Instance);

    /// <summary>Every format, JSON first (JSON is the default when a client does not choose).</summary>
    public static IReadOnlyList<WireFormat> All { get; } = [Json, MessagePack, Protobuf, Binary];

    /// <summary>A format; the API serves and reads those in <see cref="All"/> only.</summary>
    public WireFormat(string key, string name, string mediaType, IReadOnlyList<string> aliases, IWireFormatCodec codec)
    {
        Key = key;
        Name = name;
        MediaType = mediaType;
        Aliases = aliases;
        Codec = codec;
    }

    /// <summary>The value of the <c>?format=</c> query parameter that selects it.</summary>
    public string Key { get; }

    /// <summary>The name messages use for it.</summary>
    public string Name { get; }

    /// <summary>The media type the server sends by default.</summary>
    public string MediaType { get; }

    /// <summary>
    /// Other media types that name the same format: the whole list. A media type that is neither <see cref="MediaType"/>
    /// nor an alias names no format, however it is spelled (<c>application/problem+json</c> is not JSON data).
    /// </summary>
    public IReadOnlyList<string> Aliases { get; }

    /// <summary>Its encoder and decoder factory.</summary>
    [JsonIgnore]
    public IWireFormatCodec Codec { get; }

    /// <summary>
    /// Whether <paramref name="mediaType"/> (type and subtype, without parameters) is <see cref="MediaType"/> or one of
    /// <see cref="Aliases"/>, ignoring case.
    /// </summary>
    public bool IsNamedBy(ReadOnlySpan<char> mediaType)
    {
        if (mediaType.Equals(MediaType, StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        foreach (var alias in Aliases)
        {
            if (mediaType.Equals(alias, StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The format whose <see cref="Key"/> is <paramref name="key"/> (ignoring case), or null.</summary>
    public static WireFormat? FromKey(string? key) =>
        All.FirstOrDefault(format => string.Equals(format.Key, key, StringComparison.OrdinalIgnoreCase));

    /// <inheritdoc />
    public override string ToString() => Key;
}
