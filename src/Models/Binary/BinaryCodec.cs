using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// This project's own binary format, specified in docs/binary-format.md: a versioned header, the member count up
/// front, then each member as a flags byte and its differences from the previous member (id and update time as zigzag
/// varints, texts as a prefix or stem shared with the previous value plus a suffix whose trailing digits are a varint).
/// Encoding allocates nothing per member; decoding is incremental over any segmentation and checks every length and
/// count against the <see cref="DecodeLimits"/> and the bytes at hand before it allocates.
/// </summary>
public sealed class BinaryCodec : IWireFormatCodec
{
    /// <summary>The shared instance.</summary>
    public static BinaryCodec Instance { get; } = new();

    /// <inheritdoc />
    public bool MemberCountComesFirst => true;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new BinaryOrganizationEncoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new BinaryOrganizationDecoder(limits);

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits, IOrganizationSink sink) => new BinaryOrganizationDecoder(limits, sink);
}
