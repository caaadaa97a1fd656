using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Reads one payload of the binary format (docs/binary-format.md) incrementally: sections Payload (the preamble, the
/// tags and the member count) and Member, as section Reading says (units, the checks and their offsets, the limits,
/// Truncated). The payload is a sequence of units (the preamble, each tag, the member count, each member), each decoded
/// only once all its bytes are there (<see cref="OrganizationDecoder"/> offers them span by span). Between calls it keeps
/// only the previous member, which the next one is written against: its numbers and each text field's last value
/// (<see cref="BinaryTextField"/>). Members whole in one span go through <see cref="BinaryMemberFastPath"/> while it
/// takes them, the rest through <see cref="TryReadMember"/>; each goes to the sink as a view of those fields.
/// </summary>
internal sealed class BinaryOrganizationDecoder : OrganizationDecoder
{
    private Stage _stage;
    private int _tagCount;

    // "The member before the first one is taken to have Id 0, UpdateTime 0 and null texts."
    private PreviousMember _previous = new();

    public BinaryOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink = null)
        : base(limits, sink, BinaryWire.MinMemberBytes)
    {
    }

    private enum Stage
    {
        Preamble,
        Tags,
        MemberCount,
        Members,
    }

    protected override int DecodeUnits(ReadOnlySpan<byte> span, long offset)
    {
        var reader = new BufferReader(span, offset);
        while (!IsComplete)
        {
            if (_stage == Stage.Members)
            {
                reader.Position = BinaryMemberFastPath.DecodeMembers(this, span, reader.Position, ref _previous);
                if (IsComplete)
                {
                    break;
                }
            }

            var start = reader.Position;
            if (!TryReadUnit(ref reader))
            {
                reader.Position = start;
                break;
            }
        }

        return reader.Position;
    }

    protected override string DescribeUnfinished() => _stage switch
    {
        Stage.Preamble => "the preamble (magic, version, id, tag count)",
        Stage.Tags => $"tag {TagsRead} of {_tagCount}",
        Stage.MemberCount => "the member count",
        _ => $"member {MembersDecoded} of {MemberCount}",
    };

    protected override void RejectBytesAfterPayload(ReadOnlySequence<byte> rest, long offsetInBuffer)
    {
        if (!rest.IsEmpty)
        {
            WireFormatThrow.Malformed(Consumed + offsetInBuffer, "Bytes follow the last member (the payload has no footer).");
        }
    }

    /// <summary>Hands a member read against <paramref name="previous"/>, whose texts are committed, to the sink.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void TakeMember(ref PreviousMember previous, double value)
    {
        AddMember(new MemberView(previous.Id, previous.Name.Value, previous.Description.Value, previous.Address.Value, value, previous.UpdateTime));
        if (MembersDecoded == MemberCount)
        {
            Complete(MemberCount);
        }
    }

    /// <summary>Whether the members still to come leave room for one more.</summary>
    internal bool ExpectsMember => !IsComplete && MembersDecoded < MemberCount;

    internal int MaxStringBytes => Limits.MaxStringBytes;

    private bool TryReadUnit(ref BufferReader reader) => _stage switch
    {
        Stage.Members => TryReadMember(ref reader),
        Stage.Preamble => TryReadPreamble(ref reader),
        Stage.Tags => TryReadTag(ref reader),
        _ => TryReadMemberCount(ref reader),
    };

    // "the preamble (magic to tagCountPlusOne)"
    private bool TryReadPreamble(ref BufferReader reader)
    {
        // The magic is checked byte by byte as it arrives, so that a payload of another format fails at once.
        var magic = BinaryWire.Magic;
        var start = reader.Offset;
        var seen = Math.Min(reader.Remaining, BinaryWire.MagicLength);
        if (!reader.Unread[..seen].SequenceEqual(magic[..seen]))
        {
            WireFormatThrow.Malformed(start, "The payload does not start with the magic bytes 57 53 42 46 (\"WSBF\").");
        }

        if (!reader.TryReadBytes(BinaryWire.MagicLength, out _) || !reader.TryReadByte(out var version))
        {
            return false;
        }

        if (version != BinaryWire.Version)
        {
            WireFormatThrow.Malformed(reader.Offset - 1, $"The payload is version {version}; this reader implements version {BinaryWire.Version} only.");
        }

        if (!BinaryVarint.TryReadUInt32(ref reader, out var id))
        {
            return false;
        }

        var countOffset = reader.Offset;
        if (!BinaryVarint.TryReadUInt32(ref reader, out var tagCountPlusOne))
        {
            return false;
        }

        Id = BinaryVarint.UnZigZag(id);
        if (tagCountPlusOne == BinaryWire.NullCount)
        {
            EndTags(isNull: true);
            _stage = Stage.MemberCount;
            return true;
        }

        var tagCount = tagCountPlusOne - 1;
        if (tagCount > (uint)Limits.MaxTags)
        {
            WireFormatThrow.LimitExceeded(countOffset, nameof(DecodeLimits.MaxTags), tagCount, Limits.MaxTags);
        }

        _tagCount = (int)tagCount;
        EndTagsIfAllRead();
        return true;
    }

    // "Tag := (varint32 lengthPlusOne, byte[length] utf8)"
    private bool TryReadTag(ref BufferReader reader)
    {
        var offset = reader.Offset;
        if (!BinaryVarint.TryReadUInt32(ref reader, out var lengthPlusOne))
        {
            return false;
        }

        string? tag = null;
        if (lengthPlusOne != BinaryWire.NullCount)
        {
            var length = lengthPlusOne - 1;
            if (length > (uint)Limits.MaxStringBytes)
            {
                WireFormatThrow.LimitExceeded(offset, nameof(DecodeLimits.MaxStringBytes), length, Limits.MaxStringBytes);
            }

            var bytesOffset = reader.Offset;
            if (!reader.TryReadBytes((int)length, out var bytes))
            {
                return false;
            }

            if (!Utf8.IsValid(bytes))
            {
                WireFormatThrow.Malformed(bytesOffset, "A tag is not well-formed UTF-8.");
            }

            tag = Encoding.UTF8.GetString(bytes);
        }

        // A null tag stays null: Organization.Tags is annotated non-null inside, but null and empty are kept apart.
        AddTag(tag, offset);
        EndTagsIfAllRead();
        return true;
    }

    private void EndTagsIfAllRead()
    {
        _stage = Stage.Tags;
        if (TagsRead == _tagCount)
        {
            EndTags();
            _stage = Stage.MemberCount;
        }
    }

    // "varint32 memberCountPlusOne"
    private bool TryReadMemberCount(ref BufferReader reader)
    {
        var offset = reader.Offset;
        if (!BinaryVarint.TryReadUInt32(ref reader, out var countPlusOne))
        {
            return false;
        }

        if (countPlusOne == BinaryWire.NullCount)
        {
            Complete(-1);
            return true;
        }

        var count = countPlusOne - 1;
        if (count > (uint)Limits.MaxMembers)
        {
            WireFormatThrow.LimitExceeded(offset, nameof(DecodeLimits.MaxMembers), count, Limits.MaxMembers);
        }

        BeginMembers((int)count);
        _stage = Stage.Members;
        if (count == 0)
        {
            Complete(0);
        }

        return true;
    }

    // "Member := (byte flags, [varint32 zigzag idDelta]", then Text name, Text description, Text address, Value value and
    // varint64 zigzag updateTimeDelta.
    private bool TryReadMember(ref BufferReader reader)
    {
        if (!reader.TryReadByte(out var flags))
        {
            return false;
        }

        var id = unchecked(_previous.Id + 1);
        if ((flags & BinaryWire.IdIsNextFlag) == 0)
        {
            if (!BinaryVarint.TryReadUInt32(ref reader, out var idDelta))
            {
                return false;
            }

            id = unchecked(_previous.Id + BinaryVarint.UnZigZag(idDelta));
        }

        var maxBytes = Limits.MaxStringBytes;
        if (!_previous.Name.TryRead(ref reader, (flags >> BinaryWire.NameKindShift) & BinaryWire.TextKindMask, maxBytes)
            || !_previous.Description.TryRead(ref reader, (flags >> BinaryWire.DescriptionKindShift) & BinaryWire.TextKindMask, maxBytes)
            || !_previous.Address.TryRead(ref reader, (flags >> BinaryWire.AddressKindShift) & BinaryWire.TextKindMask, maxBytes))
        {
            return false;
        }

        double value;
        if ((flags & BinaryWire.ValueIsIntegerFlag) != 0)
        {
            var offset = reader.Offset;
            if (!BinaryVarint.TryReadUInt64(ref reader, out var zigzag))
            {
                return false;
            }

            var integer = BinaryVarint.UnZigZag(zigzag);
            value = integer;

            // "A reader rejects an integer that binary64 cannot hold exactly": no writer produces one.
            if (value >= BinaryWire.TwoToThe63 || (long)value != integer)
            {
                BinaryThrowHelper.ThrowInexactInteger(offset, integer);
            }
        }
        else if (reader.TryReadUInt64LittleEndian(out var bits))
        {
            value = BitConverter.UInt64BitsToDouble(bits);
        }
        else
        {
            return false;
        }

        if (!BinaryVarint.TryReadUInt64(ref reader, out var updateTimeDelta))
        {
            return false;
        }

        // The member is complete: only now does it become the previous member.
        _previous.Commit(id, unchecked(_previous.UpdateTime + BinaryVarint.UnZigZag(updateTimeDelta)));
        TakeMember(ref _previous, value);
        return true;
    }

    /// <summary>
    /// What the next member is written against ("The previous member" in Member): the previous member's id and update
    /// time, and each text field with its previous value.
    /// </summary>
    internal struct PreviousMember
    {
        public int Id;
        public long UpdateTime;
        public BinaryTextField Name;
        public BinaryTextField Description;
        public BinaryTextField Address;

        public PreviousMember()
        {
            Name = new BinaryTextField();
            Description = new BinaryTextField();
            Address = new BinaryTextField();
        }

        /// <summary>The member is complete: its numbers and texts become the previous member's.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Commit(int id, long updateTime)
        {
            Id = id;
            UpdateTime = updateTime;
            Name.Commit();
            Description.Commit();
            Address.Commit();
        }
    }
}
