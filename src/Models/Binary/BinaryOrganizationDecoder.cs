using System.Buffers;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Reads one payload of the binary format (docs/binary-format.md) incrementally: sections Payload (the preamble, the
/// tags and the member count) and Member, as section Reading says (units, the checks and their offsets, the limits,
/// Truncated). The payload is a sequence of units (the preamble, each tag, the member count, each member); a unit is
/// decoded only once all its bytes are there, so the only state kept between calls is the previous member and the
/// objects decoded so far. A unit that is not contiguous in the caller's segments is copied to a scratch buffer that
/// grows only as far as that unit needs. Each member goes to the <see cref="IOrganizationSink"/> as soon as it is
/// complete; the decoder keeps only the previous member's fields, which the next one is written against. Members
/// whole in one span go through <see cref="BinaryMemberFastPath"/> while it takes them, the rest through
/// <see cref="TryReadMember"/>; each member text through <see cref="BinaryTextDecoder"/>.
/// </summary>
internal sealed class BinaryOrganizationDecoder : IOrganizationDecoder
{
    // A seed-shaped member is about 25 bytes; a unit that straddles segments is first tried in this many bytes.
    private const int FirstStraddleWindow = 256;

    private readonly DecodeLimits _limits;
    private readonly IOrganizationSink _sink;
    private readonly OrganizationCollector? _collector;
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
    private PreviousMember _previous;

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
    // Members go through BinaryMemberFastPath while it can take them; it hands any member it cannot take to TryReadMember.
    private int DecodeUnits(ReadOnlySpan<byte> span)
    {
        var reader = new BinaryReader(span, _consumed);
        while (_stage != Stage.Complete)
        {
            if (_stage == Stage.Members)
            {
                reader.Position = BinaryMemberFastPath.DecodeMembers(
                    span, reader.Position, ref _previous, ref _membersDecoded, _memberCount, _sink, _limits.MaxStringBytes);
                if (_membersDecoded == _memberCount)
                {
                    Complete();
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

        _organizationId = BinaryReader.UnZigZag(id);
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
            id = unchecked(_previous.Id + 1);
        }
        else
        {
            if (!reader.TryReadVarUInt32(out var idDelta))
            {
                return false;
            }

            id = unchecked(_previous.Id + BinaryReader.UnZigZag(idDelta));
        }

        if (!_text.TryRead(ref reader, (flags >> BinaryWire.NameKindShift) & BinaryWire.TextKindMask, _previous.Name, ref _previous.NameHistory, out var name)
            || !_text.TryRead(ref reader, (flags >> BinaryWire.DescriptionKindShift) & BinaryWire.TextKindMask, _previous.Description, ref _previous.DescriptionHistory, out var description)
            || !_text.TryRead(ref reader, (flags >> BinaryWire.AddressKindShift) & BinaryWire.TextKindMask, _previous.Address, ref _previous.AddressHistory, out var address))
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

            var integer = BinaryReader.UnZigZag(zigzag);
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

        var updateTime = unchecked(_previous.UpdateTime + BinaryReader.UnZigZag(updateTimeDelta));

        // The member is complete: only now does it become the previous member.
        _previous.Id = id;
        _previous.UpdateTime = updateTime;
        _previous.NameHistory.Commit(name.Utf8Length, name.TrailingDigits);
        _previous.DescriptionHistory.Commit(description.Utf8Length, description.TrailingDigits);
        _previous.AddressHistory.Commit(address.Utf8Length, address.TrailingDigits);
        _previous.Name = name.Value;
        _previous.Description = description.Value;
        _previous.Address = address.Value;
        TransitionalMemberView.AddMember(_sink, new Member
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

    /// <summary>
    /// What the next member is written against ("The previous member" in Member): the previous member's id, update
    /// time and texts, and what each text's next value needs of it.
    /// </summary>
    internal struct PreviousMember
    {
        public int Id;
        public long UpdateTime;
        public string? Name;
        public string? Description;
        public string? Address;
        public TextFieldHistory NameHistory;
        public TextFieldHistory DescriptionHistory;
        public TextFieldHistory AddressHistory;
    }
}
