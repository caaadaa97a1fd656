using System.Buffers;
using System.Runtime.ExceptionServices;
using System.Text;
using System.Text.Unicode;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using WebSerialization.Models.Codecs;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Decodes the protobuf form of an <see cref="Organization"/> (see <see cref="ProtobufWire"/>) incrementally. A
/// protobuf message has no end marker, but its top level is a sequence of (tag, value) fields, and a member is one
/// of them: (tag 3, length, member bytes). Each top-level field is decoded and consumed as soon as all its bytes
/// have arrived, so between calls the decoder holds at most one unfinished field. Field values are parsed by one
/// Google.Protobuf <see cref="CodedInputStream"/> for the whole payload, pointed at each complete field in turn
/// through a <see cref="ReadOnlySequenceStream"/>: no copy of the payload and no parser per member. Each member goes
/// to the <see cref="IOrganizationSink"/> as soon as its field is decoded. The fields are read by Google.Protobuf,
/// not protobuf-net, because protobuf-net lacks the policy: it replaces invalid UTF-8 with U+FFFD where every format
/// here rejects it (docs/libraries.md); the strings Google.Protobuf replaces are checked here.
/// </summary>
/// <remarks>
/// <para>proto3 cannot tell a null string from an empty one, nor a null list from an empty one, when they are not
/// written. This contract writes empty strings and leaves out null ones, so an absent string decodes to null, and
/// an absent <c>Tags</c> or <c>Members</c> decodes to null: a GET-then-POST round trip of the generated data is
/// exact. An empty list, which is never written, comes back null, and so does a string a proto3 library left out
/// because it was empty.</para>
/// <para>Checks, before anything is allocated for a field:</para>
/// <list type="bullet">
/// <item>Known fields must have their wire type (varint Id, length-delimited Tags and Members; in a member varint
/// Id and UpdateTime, fixed64 Value, length-delimited strings); anything else is Malformed. A scalar field given
/// twice takes the last value, as protobuf specifies.</item>
/// <item>Unknown fields are skipped by their wire type. Groups nest no deeper than
/// <see cref="DecodeLimits.MaxDepth"/> counting the organization and the member around them.</item>
/// <item>A tag is at most <see cref="DecodeLimits.MaxStringBytes"/> bytes; a member or unknown length-delimited field
/// is at most <see cref="MaxFieldBytes"/>, room for three maximal strings, every number and as much again in unknown
/// fields. A longer declared length is LimitExceeded at once, without waiting for its bytes. A member string longer
/// than MaxStringBytes is LimitExceeded too.</item>
/// <item><see cref="DecodeLimits.MaxTags"/> and <see cref="DecodeLimits.MaxMembers"/> are checked as each field starts.</item>
/// <item>Varints longer than 10 bytes or beyond 64 bits, field number 0, wire types 6 and 7, unmatched end-group tags
/// and invalid UTF-8 (which Google.Protobuf would silently replace with U+FFFD) are Malformed.</item>
/// <item>A field cut short by the end of the final block is Truncated; one whose inside overruns its own declared
/// length is Malformed.</item>
/// <item>An unfinished field is read again only once it has grown by a quarter, so one trickled in a byte at a time
/// costs linear, not quadratic, time.</item>
/// </list>
/// </remarks>
internal sealed class ProtobufOrganizationDecoder : IOrganizationDecoder
{
    private const int MaxVarintBytes = 10;

    // The organization and the member each take one level; groups inside a member nest within what is left.
    private const int ContainingLevels = 2;

    // CodedInputStream counts the bytes it has read in an int; a fresh one takes over well before that overflows.
    private const long ParserRenewalPosition = 1L << 30;

    private readonly DecodeLimits _limits;
    private readonly IOrganizationSink _sink;
    private readonly OrganizationCollector? _collector;
    private readonly ReadOnlySequenceStream _fieldStream = new();
    private readonly MemberMessage _memberMessage;
    private CodedInputStream _parser;
    private ReadOnlySequence<byte> _field;
    private long _fieldPosition;
    private long _fieldOffset;
    private int _id;
    private List<string>? _tags;
    private int _membersDecoded;
    private bool _hasMembers;
    private long _consumedBefore;
    private long _pendingAfterLastRead;
    private bool _isComplete;
    private ExceptionDispatchInfo? _fault;

    public ProtobufOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public ProtobufOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
    {
        ArgumentNullException.ThrowIfNull(limits);
        _limits = limits;
        (_sink, _collector) = OrganizationCollector.Unless(sink);
        MaxFieldBytes = (int)Math.Min(Array.MaxLength, (4L * limits.MaxStringBytes) + 64);
        _memberMessage = new MemberMessage(this);
        _parser = CreateParser();
    }

    /// <summary>The longest member or unknown length-delimited field accepted, derived from MaxStringBytes.</summary>
    public int MaxFieldBytes { get; }

    public bool IsComplete => _isComplete;

    public Organization GetResult() => OrganizationCollector.ResultOf(_collector, _isComplete);

    public SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        _fault?.Throw();
        try
        {
            if (_isComplete)
            {
                return buffer.IsEmpty ? buffer.End : throw Error(WireFormatError.Malformed, "Bytes follow the final block.", 0);
            }

            return DecodeFields(buffer, isFinalBlock);
        }
        catch (WireFormatException e)
        {
            _fault = ExceptionDispatchInfo.Capture(e);
            throw;
        }
    }

    private SequencePosition DecodeFields(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        // An unfinished field is read again from its start on the next call. For a member that is a glance at its
        // length, but a group's end is only found by walking all its fields, so a group trickled in a byte per call
        // would cost quadratic time. The field is read again only once it has grown by a quarter (or the data has
        // ended), which keeps the total linear; its bytes stay unconsumed in the caller's buffer meanwhile.
        if (!isFinalBlock && buffer.Length < _pendingAfterLastRead + (_pendingAfterLastRead / 4))
        {
            return buffer.Start;
        }

        var reader = new SequenceReader<byte>(buffer);
        try
        {
            while (!reader.End && TryDecodeField(ref reader))
            {
            }
        }
        catch (Exception e) when (e is InvalidProtocolBufferException or InvalidOperationException)
        {
            throw Error(WireFormatError.Malformed, $"Invalid protobuf: {e.Message}", _fieldOffset, innerException: e);
        }

        if (isFinalBlock)
        {
            if (!reader.End)
            {
                throw Error(WireFormatError.Truncated, "The protobuf payload ends inside a field.", buffer.Length);
            }

            _isComplete = true;
            _sink.Complete(new OrganizationHeader(_id, _tags?.ToArray(), _hasMembers ? _membersDecoded : -1));
        }

        _pendingAfterLastRead = reader.Remaining;
        _consumedBefore += reader.Consumed;
        return reader.Position;
    }

    // Decodes the field at the reader and returns true, or returns false with the reader back at the field's start
    // when its bytes have not all arrived.
    private bool TryDecodeField(ref SequenceReader<byte> reader)
    {
        var fieldStart = reader.Consumed;
        if (!TryReadTag(ref reader, out var tag))
        {
            return Rewind(ref reader, fieldStart);
        }

        var valueStart = reader.Position;
        _fieldOffset = reader.Consumed;
        switch (ProtoWireFormat.GetTagFieldNumber(tag))
        {
            case ProtobufWire.OrganizationId:
                RequireTag(ref reader, tag, ProtobufWire.OrganizationIdTag);
                if (!TryReadVarint(ref reader, out _))
                {
                    return Rewind(ref reader, fieldStart);
                }

                BeginField(reader.Sequence.Slice(valueStart, reader.Position));
                _id = _parser.ReadInt32();
                EndField(ref reader);
                return true;

            case ProtobufWire.OrganizationTags:
                RequireTag(ref reader, tag, ProtobufWire.OrganizationTagsTag);
                if (_tags?.Count >= _limits.MaxTags)
                {
                    throw Error(WireFormatError.LimitExceeded, $"More than MaxTags ({_limits.MaxTags}) tags.", fieldStart, nameof(DecodeLimits.MaxTags));
                }

                if (!TrySkipLengthDelimited(ref reader, _limits.MaxStringBytes, nameof(DecodeLimits.MaxStringBytes)))
                {
                    return Rewind(ref reader, fieldStart);
                }

                BeginField(reader.Sequence.Slice(valueStart, reader.Position));
                var value = ReadString(_parser);
                EndField(ref reader);
                (_tags ??= []).Add(value);
                return true;

            case ProtobufWire.OrganizationMembers:
                RequireTag(ref reader, tag, ProtobufWire.OrganizationMembersTag);
                if (_membersDecoded >= _limits.MaxMembers)
                {
                    throw Error(WireFormatError.LimitExceeded, $"More than MaxMembers ({_limits.MaxMembers}) members.", fieldStart, nameof(DecodeLimits.MaxMembers));
                }

                if (!TrySkipLengthDelimited(ref reader, MaxFieldBytes, nameof(DecodeLimits.MaxStringBytes)))
                {
                    return Rewind(ref reader, fieldStart);
                }

                BeginField(reader.Sequence.Slice(valueStart, reader.Position));
                var member = new Member();
                _memberMessage.Target = member;
                _parser.ReadMessage(_memberMessage);
                EndField(ref reader);
                if (!_hasMembers)
                {
                    _hasMembers = true;
                    _sink.BeginMembers(new OrganizationHeader(_id, _tags?.ToArray(), -1));
                }

                _membersDecoded++;
                TransitionalMemberView.AddMember(_sink, member);
                return true;

            default:
                return TrySkipField(ref reader, tag, nesting: 1, fieldStart) || Rewind(ref reader, fieldStart);
        }
    }

    private void BeginField(ReadOnlySequence<byte> field)
    {
        // At a field boundary the parser's buffer is empty, so swapping in a fresh parser loses nothing.
        if (_parser.Position > ParserRenewalPosition)
        {
            _parser = CreateParser();
        }

        _field = field;
        _fieldPosition = _parser.Position;
        _fieldStream.SetSource(field);
    }

    private void EndField(ref SequenceReader<byte> reader)
    {
        // The scan above and the parser must agree on where the field ends, or the parser would start the next field
        // with bytes of this one still buffered.
        if (_parser.Position - _fieldPosition != _field.Length || !_fieldStream.Remaining.IsEmpty)
        {
            throw Error(WireFormatError.Malformed, "A field's value does not fill the field.", _fieldOffset);
        }
    }

    private CodedInputStream CreateParser() =>
        CodedInputStream.CreateWithLimits(_fieldStream, int.MaxValue, Math.Max(1, _limits.MaxDepth - ContainingLevels + 1));

    // Skips an unknown field of any wire type; false when its bytes have not all arrived.
    private bool TrySkipField(ref SequenceReader<byte> reader, uint tag, int nesting, long fieldStart)
    {
        switch (ProtoWireFormat.GetTagWireType(tag))
        {
            case ProtoWireFormat.WireType.Varint:
                return TryReadVarint(ref reader, out _);
            case ProtoWireFormat.WireType.Fixed64:
                return TryAdvance(ref reader, sizeof(ulong));
            case ProtoWireFormat.WireType.Fixed32:
                return TryAdvance(ref reader, sizeof(uint));
            case ProtoWireFormat.WireType.LengthDelimited:
                return TrySkipLengthDelimited(ref reader, MaxFieldBytes, nameof(DecodeLimits.MaxStringBytes));
            case ProtoWireFormat.WireType.StartGroup:
                if (nesting + 1 > _limits.MaxDepth)
                {
                    throw Error(WireFormatError.LimitExceeded, $"Groups nested deeper than MaxDepth ({_limits.MaxDepth}).", reader.Consumed, nameof(DecodeLimits.MaxDepth));
                }

                while (true)
                {
                    if (reader.Consumed - fieldStart > MaxFieldBytes)
                    {
                        throw Error(WireFormatError.LimitExceeded, $"A group is longer than {MaxFieldBytes} bytes.", fieldStart, nameof(DecodeLimits.MaxStringBytes));
                    }

                    if (!TryReadTag(ref reader, out var inner))
                    {
                        return false;
                    }

                    if (ProtoWireFormat.GetTagWireType(inner) == ProtoWireFormat.WireType.EndGroup)
                    {
                        return ProtoWireFormat.GetTagFieldNumber(inner) == ProtoWireFormat.GetTagFieldNumber(tag)
                            ? true
                            : throw Error(WireFormatError.Malformed, "An end-group tag does not match its start-group tag.", reader.Consumed);
                    }

                    if (!TrySkipField(ref reader, inner, nesting + 1, fieldStart))
                    {
                        return false;
                    }
                }

            case ProtoWireFormat.WireType.EndGroup:
                throw Error(WireFormatError.Malformed, "An end-group tag without a start-group tag.", reader.Consumed);
            default:
                throw Error(WireFormatError.Malformed, $"Invalid wire type {(int)ProtoWireFormat.GetTagWireType(tag)}.", reader.Consumed);
        }
    }

    // Reads a length prefix and steps over that many bytes; false when they have not all arrived. The length is held
    // to its limit as soon as it is read, so a huge declared length fails without waiting for (or buffering) its bytes.
    private bool TrySkipLengthDelimited(ref SequenceReader<byte> reader, int maxLength, string limit)
    {
        if (!TryReadVarint(ref reader, out var length))
        {
            return false;
        }

        if (length > (ulong)maxLength)
        {
            throw Error(WireFormatError.LimitExceeded, $"A field declares {length} bytes, more than the {maxLength} allowed.", reader.Consumed, limit);
        }

        return TryAdvance(ref reader, (long)length);
    }

    private bool TryReadTag(ref SequenceReader<byte> reader, out uint tag)
    {
        tag = 0;
        if (!TryReadVarint(ref reader, out var value))
        {
            return false;
        }

        if (value > uint.MaxValue || ProtoWireFormat.GetTagFieldNumber((uint)value) == 0)
        {
            throw Error(WireFormatError.Malformed, $"Invalid tag {value}.", reader.Consumed);
        }

        tag = (uint)value;
        return true;
    }

    private bool TryReadVarint(ref SequenceReader<byte> reader, out ulong value)
    {
        value = 0;
        for (var index = 0; index < MaxVarintBytes; index++)
        {
            if (!reader.TryRead(out var next))
            {
                return false;
            }

            // The tenth byte holds the 64th bit only.
            if (index == MaxVarintBytes - 1 && next > 1)
            {
                throw Error(WireFormatError.Malformed, "A varint overflows 64 bits.", reader.Consumed);
            }

            value |= (ulong)(next & 0x7F) << (7 * index);
            if (next < 0x80)
            {
                return true;
            }
        }

        throw Error(WireFormatError.Malformed, "A varint is longer than 10 bytes.", reader.Consumed);
    }

    private void RequireTag(ref SequenceReader<byte> reader, uint tag, uint expected)
    {
        if (tag != expected)
        {
            throw Error(WireFormatError.Malformed, $"Field {ProtoWireFormat.GetTagFieldNumber(tag)} has wire type {ProtoWireFormat.GetTagWireType(tag)}, not {ProtoWireFormat.GetTagWireType(expected)}.", reader.Consumed);
        }
    }

    // Google.Protobuf 3.25 decodes strings with replacement, so a U+FFFD in the result means either a real U+FFFD or
    // invalid bytes; only then are the raw bytes of the field checked.
    private string ReadString(CodedInputStream input)
    {
        var lengthPosition = input.Position;
        var value = input.ReadString();
        if (value.Contains('\uFFFD', StringComparison.Ordinal))
        {
            ValidateUtf8(lengthPosition);
        }

        return value;
    }

    private void ValidateUtf8(long lengthPosition)
    {
        var reader = new SequenceReader<byte>(_field.Slice(lengthPosition - _fieldPosition));
        if (!TryReadVarint(ref reader, out var length) || (ulong)reader.Remaining < length)
        {
            throw Error(WireFormatError.Malformed, "A string overruns its field.", _fieldOffset);
        }

        var bytes = reader.UnreadSequence.Slice(0, (long)length);
        var valid = bytes.IsSingleSegment ? Utf8.IsValid(bytes.FirstSpan) : IsValidUtf8(bytes);
        if (!valid)
        {
            throw Error(WireFormatError.Malformed, "A string is not valid UTF-8.", _fieldOffset);
        }
    }

    private static bool IsValidUtf8(ReadOnlySequence<byte> bytes)
    {
        var copy = ArrayPool<byte>.Shared.Rent((int)bytes.Length);
        try
        {
            bytes.CopyTo(copy);
            return Utf8.IsValid(copy.AsSpan(0, (int)bytes.Length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(copy);
        }
    }

    private static bool TryAdvance(ref SequenceReader<byte> reader, long count)
    {
        if (reader.Remaining < count)
        {
            return false;
        }

        reader.Advance(count);
        return true;
    }

    private static bool Rewind(ref SequenceReader<byte> reader, long fieldStart)
    {
        reader.Rewind(reader.Consumed - fieldStart);
        return false;
    }

    private WireFormatException Error(WireFormatError error, string message, long offsetInBuffer, string? limit = null, Exception? innerException = null) =>
        new(error, message, _consumedBefore + offsetInBuffer, limit, innerException);

    // Adapts a Member to Google.Protobuf's message parsing: CodedInputStream.ReadMessage reads the length, bounds the
    // parser to it, calls MergeFrom and checks that the member used up exactly its bytes. One instance serves every
    // member of the payload; Target is the member being filled.
    private sealed class MemberMessage(ProtobufOrganizationDecoder decoder) : IMessage
    {
        public Member? Target { get; set; }

        public MessageDescriptor Descriptor => throw new NotSupportedException("Member has no protobuf descriptor; it is parsed by hand.");

        public void MergeFrom(CodedInputStream input)
        {
            var member = Target!;
            uint tag;
            while ((tag = input.ReadTag()) != 0)
            {
                switch (ProtoWireFormat.GetTagFieldNumber(tag))
                {
                    case ProtobufWire.MemberId:
                        Require(tag, ProtobufWire.MemberIdTag);
                        member.Id = input.ReadInt32();
                        break;
                    case ProtobufWire.MemberName:
                        Require(tag, ProtobufWire.MemberNameTag);
                        member.Name = ReadString(input);
                        break;
                    case ProtobufWire.MemberDescription:
                        Require(tag, ProtobufWire.MemberDescriptionTag);
                        member.Description = ReadString(input);
                        break;
                    case ProtobufWire.MemberAddress:
                        Require(tag, ProtobufWire.MemberAddressTag);
                        member.Address = ReadString(input);
                        break;
                    case ProtobufWire.MemberValue:
                        Require(tag, ProtobufWire.MemberValueTag);
                        member.Value = input.ReadDouble();
                        break;
                    case ProtobufWire.MemberUpdateTime:
                        Require(tag, ProtobufWire.MemberUpdateTimeTag);
                        member.UpdateTime = input.ReadInt64();
                        break;
                    default:
                        input.SkipLastField();
                        break;
                }
            }
        }

        public void WriteTo(CodedOutputStream output) => throw new NotSupportedException("Members are written by ProtobufWire.");

        public int CalculateSize() => throw new NotSupportedException("Members are measured by ProtobufWire.");

        private string ReadString(CodedInputStream input)
        {
            var value = decoder.ReadString(input);

            // UTF-16 length <= UTF-8 length <= 3 x UTF-16 length, so most strings need no counting.
            var max = decoder._limits.MaxStringBytes;
            if (value.Length > max || (value.Length > max / 3 && Encoding.UTF8.GetByteCount(value) > max))
            {
                throw decoder.Error(WireFormatError.LimitExceeded, $"A string is longer than MaxStringBytes ({max}) bytes.", decoder._fieldOffset, nameof(DecodeLimits.MaxStringBytes));
            }

            return value;
        }

        private void Require(uint tag, uint expected)
        {
            if (tag != expected)
            {
                throw decoder.Error(WireFormatError.Malformed, $"Member field {ProtoWireFormat.GetTagFieldNumber(tag)} has wire type {ProtoWireFormat.GetTagWireType(tag)}, not {ProtoWireFormat.GetTagWireType(expected)}.", decoder._fieldOffset);
            }
        }
    }
}
