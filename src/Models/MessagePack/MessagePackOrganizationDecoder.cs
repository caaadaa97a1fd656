using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// Decodes the array-keyed layout incrementally. Each call consumes whole values (the organization's header, its id,
/// each tag, each member) and stops before a value the buffer cuts short, leaving its bytes to the caller for the
/// next call; so between calls it holds only the header (each member goes to the <see cref="IOrganizationSink"/> as
/// soon as it is complete). Every value may come in any format the
/// specification allows for it. Every declared count and length is checked against <see cref="DecodeLimits"/>
/// before anything else, and a string is decoded only once all its bytes are there.
/// Ours, not MessagePack-CSharp's <c>Member</c> formatter over a <c>MessagePackReader</c>, because the library lacks
/// the policy: it replaces invalid UTF-8 with U+FFFD where every format here rejects it (docs/libraries.md).
/// </summary>
internal sealed class MessagePackOrganizationDecoder : IOrganizationDecoder
{
    // Fewest bytes a member takes: fixarray, fixint Id, three nils, float 32 Value, fixint UpdateTime. Bounds the
    // capacity reserved for a declared member count by the bytes at hand.
    private const int MinMemberBytes = 1 + 1 + 3 + 5 + 1;

    // Fewest bytes a tag takes: nil or an empty fixstr.
    private const int MinTagBytes = 1;

    // How deep each array sits: the organization, its tags and members arrays, a member.
    private const int OrganizationDepth = 1;
    private const int CollectionDepth = 2;
    private const int MemberDepth = 3;

    // The same policy in every format: invalid UTF-8 is rejected, never replaced with U+FFFD.
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly DecodeLimits _limits;
    private readonly IOrganizationSink _sink;
    private readonly OrganizationCollector? _collector;
    private Step _step;
    private int _id;
    private string?[]? _tagArray;
    private int _membersDecoded;

    // Bytes consumed by earlier calls: turns a position in the current buffer into an offset in the payload.
    private long _offset;

    // The count in the tags or members array header being filled.
    private long _declaredCount;
    private List<string?>? _tags;

    public MessagePackOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public MessagePackOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
    {
        ArgumentNullException.ThrowIfNull(limits);
        _limits = limits;
        (_sink, _collector) = OrganizationCollector.Unless(sink);
    }

    private enum Step
    {
        OrganizationHeader,
        OrganizationId,
        TagsHeader,
        Tag,
        MembersHeader,
        Member,
        Complete,
        Failed,
    }

    public bool IsComplete => _step == Step.Complete;

    public SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        if (_step == Step.Failed)
        {
            throw new InvalidOperationException("The payload was already found invalid.");
        }

        _collector?.SetCapacityHint((_offset + buffer.Length) / MinMemberBytes);
        var reader = new SequenceReader<byte>(buffer);
        try
        {
            while (_step != Step.Complete)
            {
                var valueStart = reader;
                if (!TryDecodeNextValue(ref reader))
                {
                    if (isFinalBlock)
                    {
                        throw new WireFormatException(WireFormatError.Truncated, $"The payload ended inside {DescribeStep()}.", _offset + buffer.Length);
                    }

                    reader = valueStart;
                    break;
                }
            }

            if (_step == Step.Complete && !reader.End)
            {
                throw Malformed("Bytes follow the organization; a payload holds exactly one.", reader.Consumed);
            }
        }
        catch (WireFormatException)
        {
            _step = Step.Failed;
            throw;
        }

        _offset += reader.Consumed;
        return reader.Position;
    }

    public Organization GetResult() => OrganizationCollector.ResultOf(_collector, IsComplete);

    // Decodes the value the current step expects and moves to the next step; false if the buffer ends inside it.
    private bool TryDecodeNextValue(ref SequenceReader<byte> reader)
    {
        var start = reader.Consumed;
        switch (_step)
        {
            case Step.OrganizationHeader:
                if (!TryReadArrayHeader(ref reader, "the organization", nilAllowed: false, out var fields))
                {
                    return false;
                }

                CheckDepth(OrganizationDepth, start);
                if (fields != MessagePackCodec.OrganizationFieldCount)
                {
                    throw Malformed($"The organization is an array of {fields}; the layout has exactly {MessagePackCodec.OrganizationFieldCount} (Id, Tags, Members).", start);
                }

                _step = Step.OrganizationId;
                return true;

            case Step.OrganizationId:
                if (!TryReadInteger(ref reader, "Organization.Id", int.MinValue, int.MaxValue, out var id))
                {
                    return false;
                }

                _id = (int)id;
                _step = Step.TagsHeader;
                return true;

            case Step.TagsHeader:
                if (!TryReadArrayHeader(ref reader, "Organization.Tags", nilAllowed: true, out var tagCount))
                {
                    return false;
                }

                if (tagCount >= 0)
                {
                    CheckDepth(CollectionDepth, start);
                    CheckCount(tagCount, _limits.MaxTags, nameof(DecodeLimits.MaxTags), start);
                    _declaredCount = tagCount;
                    _tags = new List<string?>((int)Math.Min(tagCount, reader.Remaining / MinTagBytes));
                    _step = Step.Tag;
                    EndTagsIfAllRead();
                }
                else
                {
                    _step = Step.MembersHeader;
                }

                return true;

            case Step.Tag:
                if (!TryReadString(ref reader, "a tag", out var tag))
                {
                    return false;
                }

                _tags!.Add(tag);
                EndTagsIfAllRead();
                return true;

            case Step.MembersHeader:
                if (!TryReadArrayHeader(ref reader, "Organization.Members", nilAllowed: true, out var memberCount))
                {
                    return false;
                }

                if (memberCount >= 0)
                {
                    CheckDepth(CollectionDepth, start);
                    CheckCount(memberCount, _limits.MaxMembers, nameof(DecodeLimits.MaxMembers), start);
                    _declaredCount = memberCount;
                    _sink.BeginMembers(new OrganizationHeader(_id, _tagArray, (int)memberCount));
                    _step = Step.Member;
                    EndMembersIfAllRead();
                }
                else
                {
                    Complete(-1);
                }

                return true;

            case Step.Member:
                if (!TryReadMember(ref reader, out var member))
                {
                    return false;
                }

                _membersDecoded++;
                TransitionalMemberView.AddMember(_sink, member);
                EndMembersIfAllRead();
                return true;

            default:
                throw new InvalidOperationException($"No value is expected in step {_step}.");
        }
    }

    private void EndTagsIfAllRead()
    {
        if (_tags!.Count == _declaredCount)
        {
            // Tags is string[]: a nil tag stays null, as MessagePack-CSharp would leave it.
            _tagArray = [.. _tags];
            _tags = null;
            _step = Step.MembersHeader;
        }
    }

    private void EndMembersIfAllRead()
    {
        if (_membersDecoded == _declaredCount)
        {
            Complete(_membersDecoded);
        }
    }

    private void Complete(int memberCount)
    {
        _step = Step.Complete;
        _sink.Complete(new OrganizationHeader(_id, _tagArray, memberCount));
    }

    private string DescribeStep() => _step switch
    {
        Step.OrganizationHeader => "the organization's array header",
        Step.OrganizationId => "Organization.Id",
        Step.TagsHeader => "the tags array header",
        Step.Tag => $"tag {_tags!.Count} of {_declaredCount}",
        Step.MembersHeader => "the members array header",
        Step.Member => $"member {_membersDecoded} of {_declaredCount}",
        _ => _step.ToString(),
    };

    private bool TryReadMember(ref SequenceReader<byte> reader, [NotNullWhen(true)] out Member? member)
    {
        member = null;
        var start = reader.Consumed;
        if (!TryReadArrayHeader(ref reader, "a member", nilAllowed: false, out var fields))
        {
            return false;
        }

        CheckDepth(MemberDepth, start);
        if (fields != MessagePackCodec.MemberFieldCount)
        {
            throw MemberArityError(fields, start);
        }

        if (!TryReadInteger(ref reader, "Member.Id", int.MinValue, int.MaxValue, out var id)
            || !TryReadString(ref reader, "Member.Name", out var name)
            || !TryReadString(ref reader, "Member.Description", out var description)
            || !TryReadString(ref reader, "Member.Address", out var address)
            || !TryReadDouble(ref reader, "Member.Value", out var value)
            || !TryReadInteger(ref reader, "Member.UpdateTime", long.MinValue, long.MaxValue, out var updateTime))
        {
            return false;
        }

        member = new Member
        {
            Id = (int)id,
            Name = name,
            Description = description,
            Address = address,
            Value = value,
            UpdateTime = updateTime,
        };
        return true;
    }

    // fixarray, array 16 or array 32; nil gives -1 where the model allows null.
    private bool TryReadArrayHeader(ref SequenceReader<byte> reader, string what, bool nilAllowed, out long count)
    {
        count = 0;
        var start = reader.Consumed;
        if (!reader.TryRead(out var code))
        {
            return false;
        }

        switch (code)
        {
            case >= MessagePackWire.MinFixArray and <= MessagePackWire.MaxFixArray:
                count = code & 0x0f;
                return true;
            case MessagePackWire.Array16:
                if (!reader.TryReadBigEndian(out short count16))
                {
                    return false;
                }

                count = (ushort)count16;
                return true;
            case MessagePackWire.Array32:
                if (!reader.TryReadBigEndian(out int count32))
                {
                    return false;
                }

                count = (uint)count32;
                return true;
            case MessagePackWire.Nil when nilAllowed:
                count = -1;
                return true;
            default:
                throw UnexpectedFormat(code, start, what, nilAllowed ? "an array or nil" : "an array");
        }
    }

    // Any format of the int family, as long as the value lies in [min, max].
    private bool TryReadInteger(ref SequenceReader<byte> reader, string what, long min, long max, out long value)
    {
        value = 0;
        var start = reader.Consumed;
        if (!reader.TryRead(out var code))
        {
            return false;
        }

        if (!IsInteger(code))
        {
            throw UnexpectedFormat(code, start, what, "an integer");
        }

        if (!TryReadIntegerBody(ref reader, code, out value, out var isAboveInt64))
        {
            return false;
        }

        if (isAboveInt64 || value < min || value > max)
        {
            throw IntegerRangeError(what, value, isAboveInt64, min, max, start);
        }

        return true;
    }

    // float 64 or float 32; an integer too, as encoders in languages with a single number type write whole numbers so.
    private bool TryReadDouble(ref SequenceReader<byte> reader, string what, out double value)
    {
        value = 0;
        var start = reader.Consumed;
        if (!reader.TryRead(out var code))
        {
            return false;
        }

        switch (code)
        {
            case MessagePackWire.Float64:
                if (!reader.TryReadBigEndian(out long bits64))
                {
                    return false;
                }

                value = BitConverter.Int64BitsToDouble(bits64);
                return true;
            case MessagePackWire.Float32:
                if (!reader.TryReadBigEndian(out int bits32))
                {
                    return false;
                }

                value = BitConverter.Int32BitsToSingle(bits32);
                return true;
            default:
                if (!IsInteger(code))
                {
                    throw UnexpectedFormat(code, start, what, "a float or an integer");
                }

                if (!TryReadIntegerBody(ref reader, code, out var integer, out var isAboveInt64))
                {
                    return false;
                }

                value = isAboveInt64 ? (ulong)integer : integer;
                return true;
        }
    }

    // nil, fixstr, str 8, str 16 or str 32 holding valid UTF-8.
    private bool TryReadString(ref SequenceReader<byte> reader, string what, out string? value)
    {
        value = null;
        var start = reader.Consumed;
        if (!reader.TryRead(out var code))
        {
            return false;
        }

        long length;
        switch (code)
        {
            case >= MessagePackWire.MinFixStr and <= MessagePackWire.MaxFixStr:
                length = code & 0x1f;
                break;
            case MessagePackWire.Nil:
                return true;
            case MessagePackWire.Str8:
                if (!reader.TryRead(out var length8))
                {
                    return false;
                }

                length = length8;
                break;
            case MessagePackWire.Str16:
                if (!reader.TryReadBigEndian(out short length16))
                {
                    return false;
                }

                length = (ushort)length16;
                break;
            case MessagePackWire.Str32:
                if (!reader.TryReadBigEndian(out int length32))
                {
                    return false;
                }

                length = (uint)length32;
                break;
            default:
                throw UnexpectedFormat(code, start, what, "a string or nil");
        }

        if (length > _limits.MaxStringBytes)
        {
            throw StringLimitError(what, length, start);
        }

        if (reader.Remaining < length)
        {
            return false;
        }

        value = ReadUtf8(ref reader, (int)length, start);
        return true;
    }

    private string ReadUtf8(ref SequenceReader<byte> reader, int length, long start)
    {
        if (length == 0)
        {
            return string.Empty;
        }

        string value;
        var unread = reader.UnreadSpan;
        if (unread.Length >= length)
        {
            value = DecodeUtf8(unread[..length], start);
        }
        else
        {
            // The string spans segments; its length was checked against the limit and the bytes at hand.
            var rented = ArrayPool<byte>.Shared.Rent(length);
            try
            {
                reader.TryCopyTo(rented.AsSpan(0, length));
                value = DecodeUtf8(rented.AsSpan(0, length), start);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }

        reader.Advance(length);
        return value;
    }

    private string DecodeUtf8(ReadOnlySpan<byte> bytes, long start)
    {
        try
        {
            return StrictUtf8.GetString(bytes);
        }
        catch (DecoderFallbackException exception)
        {
            throw new WireFormatException(WireFormatError.Malformed, "A string is not valid UTF-8.", _offset + start, innerException: exception);
        }
    }

    // The bytes after an int-family first byte (none for the fixints); isAboveInt64 marks a uint 64 beyond long.MaxValue,
    // whose bits are then in value.
    private static bool TryReadIntegerBody(ref SequenceReader<byte> reader, byte code, out long value, out bool isAboveInt64)
    {
        value = 0;
        isAboveInt64 = false;
        switch (code)
        {
            case <= MessagePackWire.MaxFixInt:
                value = code;
                return true;
            case >= MessagePackWire.MinNegativeFixInt:
                value = (sbyte)code;
                return true;
            case MessagePackWire.UInt8:
            case MessagePackWire.Int8:
                if (!reader.TryRead(out var byteValue))
                {
                    return false;
                }

                value = code == MessagePackWire.UInt8 ? byteValue : (sbyte)byteValue;
                return true;
            case MessagePackWire.UInt16:
            case MessagePackWire.Int16:
                if (!reader.TryReadBigEndian(out short shortValue))
                {
                    return false;
                }

                value = code == MessagePackWire.UInt16 ? (ushort)shortValue : shortValue;
                return true;
            case MessagePackWire.UInt32:
            case MessagePackWire.Int32:
                if (!reader.TryReadBigEndian(out int intValue))
                {
                    return false;
                }

                value = code == MessagePackWire.UInt32 ? (uint)intValue : intValue;
                return true;
            default:
                if (!reader.TryReadBigEndian(out value))
                {
                    return false;
                }

                isAboveInt64 = code == MessagePackWire.UInt64 && value < 0;
                return true;
        }
    }

    private static bool IsInteger(byte code) =>
        code is <= MessagePackWire.MaxFixInt or >= MessagePackWire.MinNegativeFixInt or (>= MessagePackWire.UInt8 and <= MessagePackWire.Int64);

    private void CheckDepth(int depth, long start)
    {
        if (depth > _limits.MaxDepth)
        {
            throw DepthLimitError(depth, start);
        }
    }

    private void CheckCount(long count, int limit, string limitName, long start)
    {
        if (count > limit)
        {
            throw CountLimitError(count, limit, limitName, start);
        }
    }

    // The messages are built out of line: inlined into the per-member paths, their interpolation handlers made the JIT
    // give every member and string read a large frame that it zeroed first.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private WireFormatException MemberArityError(long fields, long start) =>
        Malformed($"A member is an array of {fields}; the layout has exactly {MessagePackCodec.MemberFieldCount} (Id, Name, Description, Address, Value, UpdateTime).", start);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private WireFormatException IntegerRangeError(string what, long value, bool isAboveInt64, long min, long max, long start)
    {
        var shown = isAboveInt64 ? ((ulong)value).ToString(CultureInfo.InvariantCulture) : value.ToString(CultureInfo.InvariantCulture);
        return Malformed($"{what} is {shown}, outside [{min}, {max}].", start);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private WireFormatException StringLimitError(string what, long length, long start) =>
        LimitExceeded($"{what} declares {length} bytes; the limit is {_limits.MaxStringBytes}.", nameof(DecodeLimits.MaxStringBytes), start);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private WireFormatException DepthLimitError(int depth, long start) =>
        LimitExceeded($"Arrays nest {depth} deep here; the limit is {_limits.MaxDepth}.", nameof(DecodeLimits.MaxDepth), start);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private WireFormatException CountLimitError(long count, int limit, string limitName, long start) =>
        LimitExceeded($"An array declares {count} elements; the limit ({limitName}) is {limit}.", limitName, start);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private WireFormatException UnexpectedFormat(byte code, long start, string what, string expected) =>
        Malformed($"Expected {what} as {expected}, found {MessagePackWire.FormatName(code)} (0x{code:x2}).", start);

    private WireFormatException Malformed(string message, long start) =>
        new(WireFormatError.Malformed, message, _offset + start);

    private WireFormatException LimitExceeded(string message, string limit, long start) =>
        new(WireFormatError.LimitExceeded, message, _offset + start, limit);
}
