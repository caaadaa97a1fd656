using System.Buffers;
using MessagePack;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// MessagePack in the array-keyed layout that MessagePack-CSharp writes for <c>[Key(0)]</c>..<c>[Key(n)]</c> types:
/// an organization is <c>[Id, Tags, Members]</c> and a member <c>[Id, Name, Description, Address, Value, UpdateTime]</c>,
/// with the byte-for-byte choices of MessagePack-CSharp (see docs/messagepack-layout.md), which property tests check
/// against the library itself (tests/Codecs/Libraries). Why the encoder is ours: <see cref="MessagePackOrganizationEncoder"/>.
/// The format codes, ranges and names are the library's public <see cref="MessagePackCode"/> and <see cref="MessagePackRange"/>.
/// </summary>
public sealed class MessagePackCodec : IWireFormatCodec, IUploadSummaryWriter
{
    /// <summary>Elements of the organization array: Id, Tags, Members.</summary>
    internal const int OrganizationFieldCount = 3;

    /// <summary>Elements of a member array: Id, Name, Description, Address, Value, UpdateTime.</summary>
    internal const int MemberFieldCount = 6;

    /// <summary>The shared instance.</summary>
    public static MessagePackCodec Instance { get; } = new();

    /// <inheritdoc />
    public bool MemberCountComesFirst => true;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new MessagePackOrganizationEncoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new MessagePackOrganizationDecoder(limits);

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits, IOrganizationSink sink) => new MessagePackOrganizationDecoder(limits, sink);

    /// <summary>Writes the summary with MessagePack-CSharp, as an array in property order.</summary>
    public void WriteSummary(IBufferWriter<byte> output, UploadSummary summary) =>
        MessagePackSerializer.Serialize(output, summary, MessagePackSerializerOptions.Standard);
}
