using WebSerialization.Models.Binary;
using WebSerialization.Models.Json;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Models.Streaming;

/// <summary>The codec of each <see cref="WireFormat"/>.</summary>
public static class WireFormatCodecs
{
    private static readonly IWireFormatCodec[] Codecs =
    [
        JsonCodec.Instance,
        MessagePackCodec.Instance,
        ProtobufCodec.Instance,
        BinaryCodec.Instance,
    ];

    /// <summary>The codec of <paramref name="format"/>.</summary>
    public static IWireFormatCodec For(WireFormat format) => Codecs[(int)format];
}
