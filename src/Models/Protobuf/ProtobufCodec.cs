using System.Buffers;
using Google.Protobuf;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Protocol Buffers, read with Google.Protobuf and written by <see cref="ProtobufBufferWriter"/> straight into the
/// output's buffer. The repeated <c>Members</c> field is written one element at a time (tag, length, member), and
/// consecutive elements of a repeated field concatenate into one valid message, so the payload streams without ever
/// being measured as a whole.
/// </summary>
/// <remarks>
/// <para>The writer is kept beside protobuf-net, which writes the same bytes but for a Value of -0.0 (docs/libraries.md;
/// tests/Codecs/Libraries), because it writes into the response's pipe between 128 KB flushes, where protobuf-net
/// writes to a <see cref="Stream"/> with synchronous writes that Kestrel refuses by default, and for speed: about 3x
/// protobuf-net's fastest call in tests/Benchmarks' rows "protobuf stream" against "protobuf-net Stream"
/// (<c>dotnet run -c Release --project tests/Benchmarks</c>, docs/results/benchmarks.md).</para>
/// <para>Google.Protobuf's <see cref="CodedOutputStream"/> can only write to an array or a <see cref="Stream"/>, so every
/// byte went through a buffer of its own and was copied into the pipe; and its <see cref="WriteContext"/>, which
/// writes into an <see cref="IBufferWriter{T}"/>, allocates an array for every string that straddles two of the
/// pipe's 4 KB spans (0.7 MB per seed payload). The writer here reserves each member's room before writing it, and
/// reads each string once.</para>
/// </remarks>
public sealed class ProtobufCodec : IWireFormatCodec
{
    /// <summary>The shared instance.</summary>
    public static ProtobufCodec Instance { get; } = new();

    /// <inheritdoc />
    public WireFormat Format => WireFormat.Protobuf;

    /// <inheritdoc />
    public bool MemberCountComesFirst => false;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new Encoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new ProtobufOrganizationDecoder(limits);

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits, IOrganizationSink sink) => new ProtobufOrganizationDecoder(limits, sink);

    private sealed class Encoder : IOrganizationEncoder
    {
        public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
        {
            ArgumentNullException.ThrowIfNull(output);
            ArgumentNullException.ThrowIfNull(organization);
            var writer = new ProtobufBufferWriter(output);
            ProtobufWire.WriteHeader(ref writer, organization);
            writer.Flush();
            return writer.BytesWritten;
        }

        public long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members)
        {
            ArgumentNullException.ThrowIfNull(output);
            var writer = new ProtobufBufferWriter(output);
            foreach (var member in members)
            {
                ArgumentNullException.ThrowIfNull(member, nameof(members));
                ProtobufWire.WriteMember(ref writer, member);
            }

            writer.Flush();
            return writer.BytesWritten;
        }

        public long WriteFooter(IBufferWriter<byte> output) => 0;
    }
}
