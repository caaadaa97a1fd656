using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using WebSerialization.Models.Codecs;
using static WebSerialization.Models.Protobuf.ProtobufWire;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Decodes the protobuf form of an <see cref="Organization"/> (see <see cref="ProtobufWire"/>) incrementally. A
/// protobuf message has no end marker, but its top level is a sequence of (tag, value) fields, and a member is one of
/// them: (tag 3, length, member bytes). Each top-level field is a unit of <see cref="OrganizationDecoder"/>: read with
/// a <see cref="BufferReader"/> once all its bytes are there, so between calls the decoder holds at most one
/// unfinished field. Each member goes to the sink as a <see cref="MemberView"/> whose texts are the payload's own
/// bytes, checked as UTF-8 in place; nothing is allocated for it. Members laid out as encoders write them are read in
/// one loop with no dispatch per field; any other member, and every fault, goes to the field-by-field reader, which
/// alone decides what is valid. Ours, not protobuf-net's reader, because protobuf-net replaces invalid UTF-8 with
/// U+FFFD where every format here rejects it (docs/libraries.md) and builds objects a sink may not want, and because
/// building them through this decoder is still faster than protobuf-net's own
/// <c>Deserialize(Stream)</c> (rows "protobuf stream" and "protobuf-net Stream" of docs/results/benchmarks.md;
/// <c>dotnet tests/Benchmarks/bin/Release/net10.0/WebSerialization.Benchmarks.dll --repeat "protobuf stream" deserialize 15</c>).
/// </summary>
/// <remarks>
/// <para>proto3 cannot tell a null string from an empty one, nor a null list from an empty one, when they are not
/// written. This contract writes empty strings and leaves out null ones, so an absent string decodes to null, and
/// an absent <c>Tags</c> or <c>Members</c> decodes to null: a GET-then-POST round trip of the generated data is
/// exact. An empty list, which is never written, comes back null, and so does a string a proto3 library left out
/// because it was empty. The id and tags may come before, between or after the members.</para>
/// <para>Checks, before anything is allocated for a field. A limit's offset is where the decoder learns of it (the
/// field's start for a count, the end of a declared length, the end of a group's start tag); a Malformed field's is
/// where the field, length or byte at fault starts:</para>
/// <list type="bullet">
/// <item>Known fields must have their wire type (varint Id, length-delimited Tags and Members; in a member varint
/// Id and UpdateTime, fixed64 Value, length-delimited strings); anything else is Malformed. A scalar field given
/// twice takes the last value, as protobuf specifies.</item>
/// <item>Unknown fields are skipped by their wire type. Groups nest no deeper than
/// <see cref="DecodeLimits.MaxDepth"/> counting the organization and the member around them: LimitExceeded at the top
/// level, Malformed inside a member.</item>
/// <item>A tag is at most <see cref="DecodeLimits.MaxStringBytes"/> bytes; a member, top-level group or unknown
/// length-delimited field is at most <see cref="ProtobufUnknownFields.MaxFieldBytes"/>, derived from it. A longer
/// declared length is LimitExceeded at once, without waiting for its bytes. A member string longer than
/// MaxStringBytes is LimitExceeded too.</item>
/// <item><see cref="DecodeLimits.MaxTags"/> and <see cref="DecodeLimits.MaxMembers"/> are checked as each field starts.</item>
/// <item>Varints longer than 10 bytes or beyond 64 bits (shorter ones padded with 0x80 bytes are accepted), tags beyond
/// 32 bits, field number 0, wire types 6 and 7, unmatched end-group tags and invalid UTF-8 are Malformed.</item>
/// <item>A field cut short by the end of the final block is Truncated; one whose inside overruns its own declared
/// length is Malformed.</item>
/// </list>
/// </remarks>
internal sealed class ProtobufOrganizationDecoder : OrganizationDecoder
{
    // A member takes at least its tag and a length of 0.
    private const int MinMemberBytes = 2;

    // The levels around a top-level field's value (the organization) and around a member's fields (and the member).
    private const int TopLevelDepth = 1;
    private const int MemberDepth = 2;

    private readonly int _maxMembers;
    private readonly int _maxStringBytes;
    private readonly ProtobufUnknownFields _unknownFields;

    public ProtobufOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public ProtobufOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
        : base(limits, sink, MinMemberBytes)
    {
        _maxMembers = limits.MaxMembers;
        _maxStringBytes = limits.MaxStringBytes;
        _unknownFields = new ProtobufUnknownFields(limits);
    }

    protected override int DecodeUnits(ReadOnlySpan<byte> span, long offset)
    {
        var reader = new BufferReader(span, offset);
        var decoded = 0;
        while (true)
        {
            reader.Position = decoded = ReadMembersInOrder(span, decoded);
            if (!TryReadField(ref reader))
            {
                return decoded;
            }

            decoded = reader.Position;
        }
    }

    protected override string DescribeUnfinished() => "a field";

    // A protobuf message ends wherever its bytes do, as long as that is between two fields.
    protected override void EndOfPayload(long unconsumed, long bufferLength)
    {
        if (unconsumed > 0)
        {
            base.EndOfPayload(unconsumed, bufferLength);
            return;
        }

        Complete(MembersDecoded > 0 ? MembersDecoded : -1);
    }

    // Reads the top-level field at the reader; false, with the reader anywhere, when its bytes have not all arrived.
    private bool TryReadField(ref BufferReader reader)
    {
        var start = reader.Position;
        if (!ProtobufUnknownFields.TryReadTag(ref reader, out var tag))
        {
            return false;
        }

        if (tag == OrganizationMembersTag)
        {
            return TryReadMember(ref reader, start);
        }

        switch (tag >> 3)
        {
            case OrganizationId:
                RequireWireType(ref reader, tag, OrganizationIdTag, start, "Organization");
                if (!reader.TryReadVarint64(out var id))
                {
                    return false;
                }

                Id = (int)id;
                return true;
            case OrganizationTags:
                RequireWireType(ref reader, tag, OrganizationTagsTag, start, "Organization");
                return TryReadTagsEntry(ref reader, start);
            case OrganizationMembers:
                ThrowWrongWireType(ref reader, tag, start, "Organization");
                return false;
            default:
                return _unknownFields.TrySkip(ref reader, tag, TopLevelDepth, insideMember: false, start);
        }
    }

    private bool TryReadTagsEntry(ref BufferReader reader, int start)
    {
        EnsureRoomForTag(reader.OffsetOf(start));
        if (!reader.TryReadVarint64(out var length))
        {
            return false;
        }

        if (length > (ulong)_maxStringBytes)
        {
            WireFormatThrow.LimitExceeded(reader.Offset, nameof(DecodeLimits.MaxStringBytes), (long)Math.Min(length, long.MaxValue), _maxStringBytes);
        }

        var textAt = reader.Offset;
        if (!reader.TryReadBytes((int)length, out var text))
        {
            return false;
        }

        if (!Utf8Text.IsWellFormed(text))
        {
            WireFormatThrow.InvalidUtf8(textAt, "A tag");
        }

        AddTag(Encoding.UTF8.GetString(text), reader.OffsetOf(start));
        return true;
    }

    private bool TryReadMember(ref BufferReader reader, int start)
    {
        if (MembersDecoded >= _maxMembers)
        {
            WireFormatThrow.LimitExceeded(reader.OffsetOf(start), nameof(DecodeLimits.MaxMembers), $"More than MaxMembers ({_maxMembers}) members.");
        }

        if (!reader.TryReadVarint64(out var length))
        {
            return false;
        }

        if (length > (ulong)_unknownFields.MaxFieldBytes)
        {
            _unknownFields.ThrowFieldTooLong(reader.Offset, length);
        }

        if ((ulong)reader.Remaining < length)
        {
            return false;
        }

        ReadMember(ref reader, reader.Position + (int)length);
        return true;
    }

    // Members one after another from `position`, as long as each is laid out as encoders of this schema write it (see
    // TryReadMemberInOrder) and the limits allow it; returns where the first field it did not take starts. That field,
    // valid or not, is TryReadField's: it reads the field again and decides, so errors and their offsets are the same
    // whichever reader meets them.
    private int ReadMembersInOrder(ReadOnlySpan<byte> span, int position)
    {
        ref var bytes = ref MemoryMarshal.GetReference(span);
        while (span.Length - position >= sizeof(ulong) && Unsafe.Add(ref bytes, position) == OrganizationMembersTag && MembersDecoded < _maxMembers)
        {
            var at = position + 1;
            if (!Leb128.TryReadShort(ref bytes, ref at, Leb128.MaxBytes64, Leb128.LastByteMax64, out var length)
                || length > (ulong)Math.Min(span.Length - at, _unknownFields.MaxFieldBytes)
                || !TryReadMemberInOrder(span, at, at + (int)length))
            {
                break;
            }

            position = at + (int)length;
        }

        return position;
    }

    // The member in span[start..end] as encoders of this schema write it: fields 1 to 6 in order, each present or left
    // out, strings shorter than 128 bytes, and 8 bytes of the span after the member, so that every load stays inside it.
    // It is read with no dispatch per field. Anything else, valid or not, returns false before anything is handed over.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadMemberInOrder(ReadOnlySpan<byte> span, int start, int end)
    {
        if (span.Length - end < sizeof(ulong))
        {
            return false;
        }

        ref var bytes = ref MemoryMarshal.GetReference(span);
        var at = start;
        var id = 0UL;
        if (at < end && Unsafe.Add(ref bytes, at) == MemberIdTag)
        {
            at++;
            if (!Leb128.TryReadShort(ref bytes, ref at, Leb128.MaxBytes64, Leb128.LastByteMax64, out id))
            {
                return false;
            }
        }

        Utf8Text name = default, description = default, address = default;
        if ((at < end && Unsafe.Add(ref bytes, at) == MemberNameTag && !TryTakeShortText(span, ref at, end, out name))
            || (at < end && Unsafe.Add(ref bytes, at) == MemberDescriptionTag && !TryTakeShortText(span, ref at, end, out description))
            || (at < end && Unsafe.Add(ref bytes, at) == MemberAddressTag && !TryTakeShortText(span, ref at, end, out address)))
        {
            return false;
        }

        var valueBits = 0UL;
        if (at < end && Unsafe.Add(ref bytes, at) == MemberValueTag)
        {
            if (end - at <= sizeof(ulong))
            {
                return false;
            }

            valueBits = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref bytes, at + 1));
            at += 1 + sizeof(ulong);
        }

        var updateTime = 0UL;
        if (at < end && Unsafe.Add(ref bytes, at) == MemberUpdateTimeTag)
        {
            at++;
            if (!Leb128.TryReadShort(ref bytes, ref at, Leb128.MaxBytes64, Leb128.LastByteMax64, out updateTime))
            {
                return false;
            }
        }

        if (at != end)
        {
            return false;
        }

        HandOver(new MemberView((int)id, name, description, address, BitConverter.UInt64BitsToDouble(valueBits), (long)updateTime));
        return true;
    }

    // The string field whose tag is at `at`: false unless its length is one byte, and it fits the member, the limit and UTF-8.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryTakeShortText(ReadOnlySpan<byte> span, scoped ref int at, int end, out Utf8Text text)
    {
        int length = Unsafe.Add(ref MemoryMarshal.GetReference(span), at + 1);
        if (length >= 0x80 || length > end - at - 2 || length > _maxStringBytes)
        {
            text = default;
            return false;
        }

        var bytes = span.Slice(at + 2, length);
        text = new Utf8Text(bytes);
        at += 2 + length;
        return Utf8Text.IsWellFormed(bytes);
    }

    // Reads the member whose bytes end at `end`, within the span, field by field in any order, and hands it to the
    // sink. A varint may be loaded 8 bytes at a time past the member's end, but only what lies within the member is ever
    // taken: every other read is bounded by `end`, so a field that runs past it fails the same way, at the same offset,
    // whatever follows.
    private void ReadMember(ref BufferReader reader, int end)
    {
        var id = 0;
        Utf8Text name = default, description = default, address = default;
        var value = 0.0;
        var updateTime = 0L;
        while (reader.Position < end)
        {
            var fieldStart = reader.Position;
            uint tag = reader.Span[fieldStart];
            if (tag < 0x80)
            {
                reader.Position = fieldStart + 1;
            }
            else
            {
                tag = ReadMemberTag(ref reader, end);
            }

            switch (tag)
            {
                case MemberIdTag:
                    id = (int)ReadMemberVarint(ref reader, end, fieldStart);
                    break;
                case MemberNameTag:
                    name = ReadMemberText(ref reader, end, fieldStart, "A member's Name");
                    break;
                case MemberDescriptionTag:
                    description = ReadMemberText(ref reader, end, fieldStart, "A member's Description");
                    break;
                case MemberAddressTag:
                    address = ReadMemberText(ref reader, end, fieldStart, "A member's Address");
                    break;
                case MemberValueTag:
                    if (end - reader.Position < sizeof(ulong))
                    {
                        ThrowMemberOverrun(ref reader, fieldStart);
                    }

                    reader.TryReadUInt64LittleEndian(out var bits);
                    value = BitConverter.UInt64BitsToDouble(bits);
                    break;
                case MemberUpdateTimeTag:
                    updateTime = (long)ReadMemberVarint(ref reader, end, fieldStart);
                    break;
                default:
                    SkipMemberField(ref reader, tag, end, fieldStart);
                    break;
            }
        }

        HandOver(new MemberView(id, name, description, address, value, updateTime));
    }

    private void HandOver(in MemberView member)
    {
        if (MembersDecoded == 0)
        {
            BeginMembers(-1);
        }

        AddMember(member);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ReadMemberVarint(ref BufferReader reader, int end, int fieldStart)
    {
        var span = reader.Span;
        var position = reader.Position;
        if (span.Length - position >= sizeof(ulong)
            && Leb128.TryReadShort(ref MemoryMarshal.GetReference(span), ref position, Leb128.MaxBytes64, Leb128.LastByteMax64, out var value)
            && position <= end)
        {
            reader.Position = position;
            return value;
        }

        return ReadMemberVarintWithin(ref reader, end, fieldStart);
    }

    // A varint the 8-byte load did not take: read again over the member's own bytes, which decide how it fails.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ulong ReadMemberVarintWithin(ref BufferReader reader, int end, int fieldStart)
    {
        var within = Within(ref reader, end, fieldStart);
        if (!within.TryReadVarint64(out var value))
        {
            ThrowMemberOverrun(ref reader, fieldStart);
        }

        reader.Position = fieldStart + within.Position;
        return value;
    }

    // A tag of more than one byte, read over the member's own bytes (it has no field of this schema).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static uint ReadMemberTag(ref BufferReader reader, int end)
    {
        var fieldStart = reader.Position;
        var within = Within(ref reader, end, fieldStart);
        if (!ProtobufUnknownFields.TryReadTag(ref within, out var tag))
        {
            ThrowMemberOverrun(ref reader, fieldStart);
        }

        reader.Position = fieldStart + within.Position;
        return tag;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Utf8Text ReadMemberText(scoped ref BufferReader reader, int end, int fieldStart, string what)
    {
        var length = ReadMemberVarint(ref reader, end, fieldStart);
        if (length > (ulong)(end - reader.Position))
        {
            ThrowMemberOverrun(ref reader, fieldStart);
        }

        reader.TryReadBytes((int)length, out var text);
        if (!Utf8Text.IsWellFormed(text))
        {
            WireFormatThrow.InvalidUtf8(reader.OffsetOf(reader.Position - text.Length), what);
        }

        if (text.Length > _maxStringBytes)
        {
            ThrowStringTooLong(ref reader, fieldStart, length);
        }

        return new Utf8Text(text);
    }

    // A field of a member that is none of its six: an unknown one is skipped over the member's own bytes, a known one
    // with another wire type refused.
    private void SkipMemberField(ref BufferReader reader, uint tag, int end, int fieldStart)
    {
        if (tag >> 3 == 0)
        {
            ProtobufUnknownFields.ThrowInvalidTag(reader.OffsetOf(fieldStart), tag);
        }

        if ((tag >> 3) is >= MemberId and <= MemberUpdateTime)
        {
            ThrowWrongWireType(ref reader, tag, fieldStart, "Member");
        }

        var within = Within(ref reader, end, fieldStart);
        if (!_unknownFields.TrySkip(ref within, tag, MemberDepth, insideMember: true, 0))
        {
            ThrowMemberOverrun(ref reader, fieldStart);
        }

        reader.Position = fieldStart + within.Position;
    }

    // A reader over the member's bytes from the field at `fieldStart` to `end`, at the reader's place in that field.
    private static BufferReader Within(ref BufferReader reader, int end, int fieldStart) =>
        new(reader.Span[fieldStart..end], reader.OffsetOf(fieldStart)) { Position = reader.Position - fieldStart };

    private static void RequireWireType(ref BufferReader reader, uint tag, byte expected, int fieldStart, string message)
    {
        if (tag != expected)
        {
            ThrowWrongWireType(ref reader, tag, fieldStart, message);
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowWrongWireType(ref BufferReader reader, uint tag, int fieldStart, string message) =>
        WireFormatThrow.Malformed(reader.OffsetOf(fieldStart), $"{message} field {tag >> 3} has wire type {tag & WireTypeMask}, which it does not have in the schema.");

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowMemberOverrun(ref BufferReader reader, int fieldStart) =>
        WireFormatThrow.Malformed(reader.OffsetOf(fieldStart), "A member's field runs past the member's declared length.");

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowStringTooLong(ref BufferReader reader, int fieldStart, ulong length) =>
        WireFormatThrow.LimitExceeded(reader.OffsetOf(fieldStart), nameof(DecodeLimits.MaxStringBytes), (long)length, _maxStringBytes);
}
