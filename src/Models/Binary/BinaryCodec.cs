using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Binary;

/// <summary>PLACEHOLDER: being written.</summary>
public sealed class BinaryCodec : IWireFormatCodec
{
    /// <summary>The shared instance.</summary>
    public static BinaryCodec Instance { get; } = new();

    /// <inheritdoc />
    public WireFormat Format => WireFormat.Binary;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => throw new NotImplementedException();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => throw new NotImplementedException();
}
