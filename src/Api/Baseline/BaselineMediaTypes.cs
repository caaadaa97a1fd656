using WebSerialization.Models;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// The media types the baseline's stock formatters register, and the <c>?format=</c> keys MVC's format filter maps to
/// them. They are the stock packages' own: MessagePack.AspNetCoreMvcFormatter knows only <c>application/x-msgpack</c>,
/// so a client asking for <c>application/vnd.msgpack</c> gets 406 here.
/// </summary>
public static class BaselineMediaTypes
{
    /// <summary>The formats the baseline serves (the custom binary format has no stock formatter), with the media type each is sent as.</summary>
    public static IReadOnlyDictionary<WireFormat, string> Sent { get; } = new Dictionary<WireFormat, string>
    {
        [WireFormat.Json] = WireMediaTypes.Json,
        [WireFormat.MessagePack] = WireMediaTypes.XMessagePack,
        [WireFormat.Protobuf] = WireMediaTypes.Protobuf,
    };

    /// <summary>What protobuf-net.AspNetCore registers its formatters for: the three protobuf names.</summary>
    public static IReadOnlyList<string> ProtobufNet { get; } = [WireMediaTypes.Protobuf, WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf];

    /// <summary>The <c>?format=</c> key of <paramref name="format"/>, the same as the streamed endpoint's.</summary>
    public static string Key(WireFormat format) => WireFormatDescriptor.Of(format).Key;
}
