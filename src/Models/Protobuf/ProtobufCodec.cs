using System.Buffers;
using Google.Protobuf;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Protocol Buffers through Google.Protobuf's <see cref="CodedOutputStream"/>. The repeated <c>Members</c> field
/// is written one element at a time (tag, length, member), and consecutive elements of a repeated field
/// concatenate into one valid message, so the payload streams without ever being measured as a whole.
/// </summary>
public sealed class ProtobufCodec : IWireFormatCodec
{
    /// <summary>The shared instance.</summary>
    public static ProtobufCodec Instance { get; } = new();

    /// <inheritdoc />
    public WireFormat Format => WireFormat.Protobuf;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new Encoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new ProtobufOrganizationDecoder(limits);

    private sealed class Encoder : IOrganizationEncoder
    {
        // CodedOutputStream buffers this much before it writes through to the stream (and so into the pipe).
        private const int BufferSize = 8 * 1024;

        private readonly BufferWriterStream _stream = new();
        private readonly CodedOutputStream _coded;

        public Encoder() => _coded = new CodedOutputStream(_stream, BufferSize);

        public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
        {
            var before = Begin(output);
            if (organization.Id != 0)
            {
                _coded.WriteRawTag((byte)ProtobufWire.OrganizationIdTag);
                _coded.WriteInt32(organization.Id);
            }

            foreach (var tag in organization.Tags ?? [])
            {
                // A repeated string cannot hold null; a null tag goes on the wire as an empty string.
                _coded.WriteRawTag((byte)ProtobufWire.OrganizationTagsTag);
                _coded.WriteString(tag ?? string.Empty);
            }

            return End(before);
        }

        public long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members)
        {
            var before = Begin(output);
            foreach (var member in members)
            {
                _coded.WriteRawTag((byte)ProtobufWire.OrganizationMembersTag);
                _coded.WriteLength(ProtobufWire.ComputeMemberSize(member));
                ProtobufWire.WriteMember(_coded, member);
            }

            return End(before);
        }

        public long WriteFooter(IBufferWriter<byte> output) => 0;

        private long Begin(IBufferWriter<byte> output)
        {
            _stream.Output = output;
            return _stream.BytesWritten;
        }

        private long End(long before)
        {
            _coded.Flush();
            return _stream.BytesWritten - before;
        }
    }
}
