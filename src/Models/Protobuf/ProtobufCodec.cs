using System.Buffers;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Protocol Buffers, read by <see cref="ProtobufOrganizationDecoder"/> and written by <see cref="ProtobufWireWriter"/> straight
/// into the output's buffer. The repeated <c>Members</c> field is written one element at a time (tag, length, member), and
/// consecutive elements of a repeated field concatenate into one valid message, so the payload streams without ever
/// being measured as a whole.
/// </summary>
/// <remarks>
/// <para>The writer is kept beside protobuf-net, which writes the same bytes but for a Value of -0.0 (docs/libraries.md;
/// tests/Codecs/Libraries), because it writes into the response's pipe between the flushes that bound its memory, where
/// protobuf-net writes to a <see cref="Stream"/> with synchronous writes that Kestrel refuses by default, and for speed: the rows
/// "protobuf stream" and "protobuf-net Stream" (protobuf-net's fastest call) in docs/results/benchmarks.md
/// (<c>dotnet run -c Release --project tests/Benchmarks</c>).</para>
/// <para>Google.Protobuf's <c>CodedOutputStream</c> writes only to an array or a <see cref="Stream"/>, which puts a
/// copy between it and the pipe, and its <c>WriteContext</c> allocates an array for each string that straddles two
/// of the output's spans; <see cref="ProtobufOrganizationEncoder"/> reserves each member's room before writing it and
/// reads each string once, so it allocates nothing per member (tests/Codecs' allocation tests hold it to that).</para>
/// </remarks>
public sealed class ProtobufCodec : IWireFormatCodec, IUploadSummaryWriter
{
    /// <summary>The shared instance.</summary>
    public static ProtobufCodec Instance { get; } = new();

    /// <inheritdoc />
    public bool MemberCountComesFirst => false;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new ProtobufOrganizationEncoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new ProtobufOrganizationDecoder(limits);

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits, IOrganizationSink sink) => new ProtobufOrganizationDecoder(limits, sink);

    /// <summary>Writes the summary with protobuf-net, as fields 1..6 in property order.</summary>
    public void WriteSummary(IBufferWriter<byte> output, UploadSummary summary) => ProtoBuf.Serializer.Serialize(output, summary);
}
