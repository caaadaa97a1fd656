using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Reads one payload of the binary format (docs/binary-format.md) incrementally. The payload is a sequence of units
/// (the preamble, each tag, the member count, each member); a unit is decoded only once all its bytes are there, so
/// the only state kept between calls is the previous member and the objects decoded so far. A unit that is not
/// contiguous in the caller's segments is copied to a scratch buffer that grows only as far as that unit needs.
/// Each member goes to the <see cref="IOrganizationSink"/> as soon as it is complete; the decoder keeps only the
/// previous member's fields, which the next one is written against.
/// </summary>
internal sealed class BinaryOrganizationDecoder : IOrganizationDecoder
{
    // A seed-shaped member is about 25 bytes; a unit that straddles segments is first tried in this many bytes.
    private const int FirstStraddleWindow = 256;

    // The fast member loop runs while this many bytes remain, enough for the most a member it takes can read: flags, an
    // id delta, three numbers and a time delta of up to 8 bytes each, and a value of 8 bytes, each varint read as one
    // 8-byte load (1 + 5 * 8 + 8 = 49).
    private const int FastMemberWindow = 64;

    private readonly DecodeLimits _limits;
    private readonly IOrganizationSink _sink;
    private readonly OrganizationCollector? _collector;
    private TextFieldHistory _name;
    private TextFieldHistory _description;
    private TextFieldHistory _address;
    private byte[] _scratch = [];

    // Not readonly: reading a text may grow its buffer.
    private BinaryTextDecoder _text;

    private Stage _stage;
    private long _consumed;
    private long _available;

    private int _organizationId;
    private int _tagCount;
    private List<string>? _tags;
    private string?[]? _tagArray;

    // -1 while Members is null.
    private int _memberCount = -1;
    private int _membersDecoded;

    // "The member before the first one is taken to have Id 0, UpdateTime 0 and null texts."
    private int _previousId;
    private long _previousUpdateTime;
    private string? _previousName;
    private string? _previousDescription;
    private string? _previousAddress;

    public BinaryOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public BinaryOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
    {
        ArgumentNullException.ThrowIfNull(limits);
        _limits = limits;
        _text = new BinaryTextDecoder(limits);
        (_sink, _collector) = OrganizationCollector.Unless(sink);
    }

    private enum Stage
    {
        Preamble,
        Tags,
        MemberCount,
        Members,
        Complete,
    }

    public bool IsComplete => _stage == Stage.Complete;

    public Organization GetResult() => OrganizationCollector.ResultOf(_collector, IsComplete);

    public SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        var remaining = buffer;
        while (_stage != Stage.Complete && !remaining.IsEmpty)
        {
            _available = remaining.Length;
            _collector?.SetCapacityHint((_consumed + _available) / BinaryWire.MinMemberBytes);
            var span = remaining.FirstSpan;
            var used = DecodeUnits(span);
            if (used == 0)
            {
                if (span.Length == remaining.Length)
                {
                    break;
                }

                used = DecodeStraddlingUnit(remaining);
                if (used == 0)
                {
                    break;
                }
            }

            remaining = remaining.Slice(used);
            _consumed += used;
        }

        if (_stage == Stage.Complete && !remaining.IsEmpty)
        {
            BinaryThrowHelper.ThrowMalformed(_consumed, "Bytes follow the last member (the payload has no footer).");
        }

        if (isFinalBlock && _stage != Stage.Complete)
        {
            BinaryThrowHelper.ThrowTruncated(_consumed + remaining.Length, DescribeStage());
        }

        return remaining.Start;
    }

    // Decodes whole units from the start of span and returns the bytes they took; 0 when the first unit is incomplete.
    // Members go through the fast loop while it can take them; it hands any member it cannot take to TryReadMember.
    private int DecodeUnits(ReadOnlySpan<byte> span)
    {
        var reader = new BinaryReader(span, _consumed);
        while (_stage != Stage.Complete)
        {
            if (_stage == Stage.Members)
            {
                reader.Position = DecodeMembersFast(span, reader.Position);
                if (_stage == Stage.Complete)
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

    // Copies the next unit out of several segments, doubling the copy until the unit fits or the bytes run out.
    private int DecodeStraddlingUnit(ReadOnlySequence<byte> remaining)
    {
        var size = (int)Math.Min(remaining.Length, FirstStraddleWindow);
        while (true)
        {
            if (_scratch.Length < size)
            {
                _scratch = new byte[Math.Max(size, _scratch.Length * 2)];
            }

            remaining.Slice(0, size).CopyTo(_scratch);
            var reader = new BinaryReader(new ReadOnlySpan<byte>(_scratch, 0, size), _consumed);
            if (TryReadUnit(ref reader))
            {
                return reader.Position;
            }

            if (size == remaining.Length)
            {
                return 0;
            }

            size = (int)Math.Min(remaining.Length, 2L * size);
        }
    }

    private bool TryReadUnit(ref BinaryReader reader) => _stage switch
    {
        Stage.Members => TryReadMember(ref reader),
        Stage.Preamble => TryReadPreamble(ref reader),
        Stage.Tags => TryReadTag(ref reader),
        _ => TryReadMemberCount(ref reader),
    };

    // "the preamble (magic to tagCountPlusOne)"
    private bool TryReadPreamble(ref BinaryReader reader)
    {
        // The magic is checked byte by byte as it arrives, so that a payload of another format fails at once.
        var magic = BinaryWire.Magic;
        var start = reader.Offset;
        var seen = Math.Min(reader.Remaining, BinaryWire.MagicLength);
        if (!reader.Unread[..seen].SequenceEqual(magic[..seen]))
        {
            BinaryThrowHelper.ThrowMalformed(start, "The payload does not start with the magic bytes 57 53 42 46 (\"WSBF\").");
        }

        if (!reader.TryReadBytes(BinaryWire.MagicLength, out _) || !reader.TryReadByte(out var version))
        {
            return false;
        }

        if (version != BinaryWire.Version)
        {
            BinaryThrowHelper.ThrowMalformed(
                reader.Offset - 1,
                $"The payload is version {version}; this reader implements version {BinaryWire.Version} only.");
        }

        if (!reader.TryReadVarUInt32(out var id))
        {
            return false;
        }

        var countOffset = reader.Offset;
        if (!reader.TryReadVarUInt32(out var tagCountPlusOne))
        {
            return false;
        }

        _organizationId = UnZigZag(id);
        if (tagCountPlusOne == BinaryWire.NullCount)
        {
            _stage = Stage.MemberCount;
            return true;
        }

        var tagCount = tagCountPlusOne - 1;
        if (tagCount > (uint)_limits.MaxTags)
        {
            BinaryThrowHelper.ThrowLimitExceeded(countOffset, nameof(DecodeLimits.MaxTags), tagCount, _limits.MaxTags);
        }

        // Each tag takes at least one byte, so the bytes at hand bound what is worth reserving.
        _tagCount = (int)tagCount;
        _tags = new List<string>((int)Math.Min(tagCount, _available));
        _stage = tagCount == 0 ? Stage.MemberCount : Stage.Tags;
        return true;
    }

    // "Tag := (varint32 lengthPlusOne, byte[length] utf8)"
    private bool TryReadTag(ref BinaryReader reader)
    {
        var offset = reader.Offset;
        if (!reader.TryReadVarUInt32(out var lengthPlusOne))
        {
            return false;
        }

        string? tag = null;
        if (lengthPlusOne != BinaryWire.NullCount)
        {
            var length = lengthPlusOne - 1;
            if (length > (uint)_limits.MaxStringBytes)
            {
                BinaryThrowHelper.ThrowLimitExceeded(offset, nameof(DecodeLimits.MaxStringBytes), length, _limits.MaxStringBytes);
            }

            var bytesOffset = reader.Offset;
            if (!reader.TryReadBytes((int)length, out var bytes))
            {
                return false;
            }

            tag = BinaryTextDecoder.DecodeUtf8(bytes, bytesOffset);
        }

        // A null tag stays null: Organization.Tags is annotated non-null inside, but null and empty are kept apart.
        _tags!.Add(tag!);
        if (_tags.Count == _tagCount)
        {
            _stage = Stage.MemberCount;
        }

        return true;
    }

    // "varint32 memberCountPlusOne"
    private bool TryReadMemberCount(ref BinaryReader reader)
    {
        var offset = reader.Offset;
        if (!reader.TryReadVarUInt32(out var countPlusOne))
        {
            return false;
        }

        _tagArray = _tags?.ToArray();
        if (countPlusOne == BinaryWire.NullCount)
        {
            Complete();
            return true;
        }

        var count = countPlusOne - 1;
        if (count > (uint)_limits.MaxMembers)
        {
            BinaryThrowHelper.ThrowLimitExceeded(offset, nameof(DecodeLimits.MaxMembers), count, _limits.MaxMembers);
        }

        _memberCount = (int)count;
        _sink.BeginMembers(new OrganizationHeader(_organizationId, _tagArray, _memberCount));
        if (count == 0)
        {
            Complete();
        }
        else
        {
            _stage = Stage.Members;
        }

        return true;
    }

    // "Member := (byte flags, [varint32 zigzag idDelta]", then Text name, Text description, Text address, Value value and
    // varint64 zigzag updateTimeDelta.
    private bool TryReadMember(ref BinaryReader reader)
    {
        if (!reader.TryReadByte(out var flags))
        {
            return false;
        }

        int id;
        if ((flags & BinaryWire.IdIsNextFlag) != 0)
        {
            id = unchecked(_previousId + 1);
        }
        else
        {
            if (!reader.TryReadVarUInt32(out var idDelta))
            {
                return false;
            }

            id = unchecked(_previousId + UnZigZag(idDelta));
        }

        if (!_text.TryRead(ref reader, (flags >> BinaryWire.NameKindShift) & BinaryWire.TextKindMask, _previousName, ref _name, out var name)
            || !_text.TryRead(ref reader, (flags >> BinaryWire.DescriptionKindShift) & BinaryWire.TextKindMask, _previousDescription, ref _description, out var description)
            || !_text.TryRead(ref reader, (flags >> BinaryWire.AddressKindShift) & BinaryWire.TextKindMask, _previousAddress, ref _address, out var address))
        {
            return false;
        }

        double value;
        if ((flags & BinaryWire.ValueIsIntegerFlag) != 0)
        {
            var offset = reader.Offset;
            if (!reader.TryReadVarUInt64(out var zigzag))
            {
                return false;
            }

            var integer = UnZigZag(zigzag);
            value = integer;

            // "A reader rejects an integer that binary64 cannot hold exactly": no writer produces one.
            if (value >= BinaryWire.TwoToThe63 || (long)value != integer)
            {
                BinaryThrowHelper.ThrowInexactInteger(offset, integer);
            }
        }
        else if (!reader.TryReadDouble(out value))
        {
            return false;
        }

        if (!reader.TryReadVarUInt64(out var updateTimeDelta))
        {
            return false;
        }

        var updateTime = unchecked(_previousUpdateTime + UnZigZag(updateTimeDelta));

        // The member is complete: only now does it become the previous member.
        _previousId = id;
        _previousUpdateTime = updateTime;
        _name.Commit(name.Utf8Length, name.TrailingDigits);
        _description.Commit(description.Utf8Length, description.TrailingDigits);
        _address.Commit(address.Utf8Length, address.TrailingDigits);
        _previousName = name.Value;
        _previousDescription = description.Value;
        _previousAddress = address.Value;
        _sink.AddMember(new Member
        {
            Id = id,
            Name = name.Value,
            Description = description.Value,
            Address = address.Value,
            Value = value,
            UpdateTime = updateTime,
        });

        if (++_membersDecoded == _memberCount)
        {
            Complete();
        }

        return true;
    }

    // The common case of TryReadMember in one loop whose state lives in locals: members whose texts are null or kind 3
    // and whose varints each end within 8 bytes, while at least FastMemberWindow bytes remain (so no read needs a bounds
    // check). It stops, without having changed anything for that member, at the first member it does not take: other
    // text kinds, longer varints, anything the spec rejects, or too few bytes. TryReadMember then reads that member, and
    // either throws what the spec says or decodes it as usual. Returns the position after the last member taken.
    private int DecodeMembersFast(ReadOnlySpan<byte> span, int position)
    {
        var count = _membersDecoded;
        var memberCount = _memberCount;
        var last = span.Length - FastMemberWindow;
        if (position > last || count == memberCount)
        {
            return position;
        }

        var sink = _sink;
        var maxBytes = _limits.MaxStringBytes;
        var name = _previousName;
        var description = _previousDescription;
        var address = _previousAddress;
        var nameHistory = _name;
        var descriptionHistory = _description;
        var addressHistory = _address;
        var previousId = _previousId;
        var previousUpdateTime = _previousUpdateTime;
        ref var bytes = ref MemoryMarshal.GetReference(span);
        while (position <= last && count < memberCount)
        {
            var at = position;
            int flags = Unsafe.Add(ref bytes, at++);

            // Each 2-bit kind is 0 (null) or 3 (stem and number) when its two bits are equal.
            var kinds = flags >> BinaryWire.NameKindShift;
            if ((((kinds >> 1) ^ kinds) & 0b01_0101) != 0)
            {
                break;
            }

            var id = unchecked(previousId + 1);
            if ((flags & BinaryWire.IdIsNextFlag) == 0)
            {
                if (!BinaryReader.TryReadShortVarint(ref bytes, ref at, BinaryWire.MaxVarUInt32Bytes, BinaryWire.LastVarUInt32ByteMax, out var idDelta))
                {
                    break;
                }

                id = unchecked(previousId + UnZigZag((uint)idDelta));
            }

            if (!TryReadFastText(ref bytes, ref at, kinds, name, ref nameHistory, maxBytes, out var nextName)
                || !TryReadFastText(ref bytes, ref at, kinds >> 2, description, ref descriptionHistory, maxBytes, out var nextDescription)
                || !TryReadFastText(ref bytes, ref at, kinds >> 4, address, ref addressHistory, maxBytes, out var nextAddress))
            {
                break;
            }

            double value;
            if ((flags & BinaryWire.ValueIsIntegerFlag) != 0)
            {
                if (!BinaryReader.TryReadShortVarint(ref bytes, ref at, BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out var zigzag))
                {
                    break;
                }

                // At most 56 bits, so never 2^63 or more; an integer binary64 cannot hold exactly is left to TryReadMember.
                var integer = UnZigZag(zigzag);
                value = integer;
                if ((long)value != integer)
                {
                    break;
                }
            }
            else
            {
                value = BinaryPrimitives.ReadDoubleLittleEndian(MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref bytes, at), sizeof(double)));
                at += sizeof(double);
            }

            if (!BinaryReader.TryReadShortVarint(ref bytes, ref at, BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out var updateTimeDelta))
            {
                break;
            }

            // The member is complete: only now does it become the previous member.
            var updateTime = unchecked(previousUpdateTime + UnZigZag(updateTimeDelta));
            previousId = id;
            previousUpdateTime = updateTime;
            name = nextName.Value;
            description = nextDescription.Value;
            address = nextAddress.Value;
            nameHistory.Commit(nextName.Utf8Length, nextName.TrailingDigits);
            descriptionHistory.Commit(nextDescription.Utf8Length, nextDescription.TrailingDigits);
            addressHistory.Commit(nextAddress.Utf8Length, nextAddress.TrailingDigits);
            position = at;
            sink.AddMember(new Member
            {
                Id = id,
                Name = name,
                Description = description,
                Address = address,
                Value = value,
                UpdateTime = updateTime,
            });
            count++;
        }

        _previousId = previousId;
        _previousUpdateTime = previousUpdateTime;
        _previousName = name;
        _previousDescription = description;
        _previousAddress = address;
        _membersDecoded = count;
        _name = nameHistory;
        _description = descriptionHistory;
        _address = addressHistory;
        if (count == memberCount)
        {
            Complete();
        }

        return position;
    }

    // A text of kind 0 or 3 (the caller has checked) in the fast loop; false leaves the member to TryReadMember.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryReadFastText(ref byte bytes, ref int at, int kind, string? previous, ref TextFieldHistory history, int maxBytes, out DecodedText text)
    {
        if ((kind & BinaryWire.TextKindMask) == BinaryWire.TextNull)
        {
            text = DecodedText.Null;
            return true;
        }

        // At most 56 bits, so below NumberLimit (10^19) by construction.
        if (!BinaryReader.TryReadShortVarint(ref bytes, ref at, BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out var number))
        {
            text = default;
            return false;
        }

        return BinaryTextDecoder.TryBuildStemAndNumber(previous, ref history, number, maxBytes, out text);
    }

    private void Complete()
    {
        _stage = Stage.Complete;
        _sink.Complete(new OrganizationHeader(_organizationId, _tagArray, _memberCount));
    }

    private string DescribeStage() => _stage switch
    {
        Stage.Preamble => "the preamble (magic, version, id, tag count)",
        Stage.Tags => $"tag {_tags!.Count} of {_tagCount}",
        Stage.MemberCount => "the member count",
        _ => $"member {_membersDecoded} of {_memberCount}",
    };

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int UnZigZag(uint value) => (int)(value >> 1) ^ -(int)(value & 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long UnZigZag(ulong value) => (long)(value >> 1) ^ -(long)(value & 1);
}
