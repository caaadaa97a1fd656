using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.MessagePack;

/// <summary>PLACEHOLDER: being written.</summary>
public sealed class MessagePackCodec : IWireFormatCodec
{
    /// <summary>The shared instance.</summary>
    public static MessagePackCodec Instance { get; } = new();

    /// <inheritdoc />
    public WireFormat Format => WireFormat.MessagePack;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => throw new NotImplementedException();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => throw new NotImplementedException();
}
