namespace WebSerialization.Models.Baseline;

/// <summary>
/// What the MVC baseline offers on the wire: its route, the media types its stock formatters register, and the
/// <c>?format=</c> keys MVC's format filter maps to them. The media types are the stock packages' own:
/// MessagePack.AspNetCoreMvcFormatter knows only <c>application/x-msgpack</c>, so a client asking for
/// <c>application/vnd.msgpack</c> gets 406 here. The API's MVC baseline (src/Api/Baseline) and the load runner's
/// baseline scenarios both take them from here.
/// </summary>
public static class BaselineContract
{
    /// <summary>The controller's route (no leading slash, as MVC's route templates have it).</summary>
    public const string Route = "api/mvc/organization";

    /// <summary>The formats the baseline serves (the custom binary format has no stock formatter), with the media type each is sent as.</summary>
    public static IReadOnlyDictionary<WireFormat, string> Sent { get; } = new Dictionary<WireFormat, string>
    {
        [WireFormat.Json] = WireMediaTypes.Json,
        [WireFormat.MessagePack] = WireMediaTypes.XMessagePack,
        [WireFormat.Protobuf] = WireMediaTypes.Protobuf,
    };

    /// <summary>What protobuf-net.AspNetCore registers its formatters for: the three protobuf names.</summary>
    public static IReadOnlyList<string> ProtobufNet { get; } = [WireMediaTypes.Protobuf, WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf];
}
