using System.Buffers;
using System.Runtime.ExceptionServices;
using System.Text;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// Decodes the JSON form of an <see cref="Organization"/> (see <see cref="JsonCodec"/>) incrementally. A
/// <see cref="Utf8JsonReader"/> reads whatever has arrived, token by token, and its state is carried from one
/// <see cref="Decode"/> call to the next; every complete token is consumed at once, so between calls the decoder
/// holds at most one unfinished token, however large the body, and a member may span calls. Each member goes to the
/// <see cref="IOrganizationSink"/> as soon as its object closes. Members are mapped here rather than by
/// System.Text.Json's source-generated <c>Member</c> deserializer because that lacks the policy: it allocates each
/// string before MaxStringBytes can be checked.
/// </summary>
/// <remarks>
/// The policy, the same for the organization and for each member:
/// <list type="bullet">
/// <item>Known properties (<c>id</c>, <c>tags</c>, <c>members</c>; <c>id</c>, <c>name</c>, <c>description</c>,
/// <c>address</c>, <c>value</c>, <c>updateTime</c>: camelCase, case-sensitive) may come in any order, each at most
/// once. A repeated known property is Malformed: parsers disagree on which copy wins.</item>
/// <item>Unknown properties are skipped token by token, under the same <see cref="DecodeLimits.MaxDepth"/> and
/// <see cref="DecodeLimits.MaxStringBytes"/> limits and the same UTF-8 checks as known ones.</item>
/// <item><c>"tags": null</c>, <c>"members": null</c> and an absent property decode to null. A tag or a member
/// may not itself be null; a member's strings may.</item>
/// <item>Numbers must fit their property's type exactly (<c>1.0</c> is not an int32), a literal that overflows a
/// double is Malformed, and NaN and the infinities are the strings <c>"NaN"</c>, <c>"Infinity"</c>,
/// <c>"-Infinity"</c>.</item>
/// <item>Invalid UTF-8, escaped lone surrogates, a byte-order mark, comments, trailing commas and anything but
/// whitespace after the root object are Malformed.</item>
/// <item>No token may be longer than the longest allowed string written with every byte escaped (6 bytes per
/// byte), so a string that never ends is refused (LimitExceeded, MaxStringBytes) before it fills memory. An
/// unfinished token is read again only once it has grown by a quarter, so one trickled in a byte at a time costs
/// linear, not quadratic, time.</item>
/// </list>
/// The payload is complete only once a final block has been read, so trailing bytes are always checked.
/// </remarks>
internal sealed class JsonOrganizationDecoder : IOrganizationDecoder
{
    // The longest escape (\uXXXX) is 6 bytes for at least one byte of UTF-8, plus the quotes around a string.
    private const int MaxEscapedBytesPerByte = 6;
    private const int TokenOverhead = 2;

    private readonly DecodeLimits _limits;
    private readonly long _maxPendingBytes;
    private readonly IOrganizationSink _sink;
    private readonly OrganizationCollector? _collector;
    private JsonReaderState _readerState;
    private Expect _expect = Expect.OrganizationStart;
    private Expect _afterSkip;
    private int _skipDepth;
    private OrganizationProperties _seenOrganization;
    private MemberProperties _seenMember;
    private int _id;
    private List<string>? _tags;
    private string?[]? _tagArray;

    // -1 while Members is null or absent.
    private int _memberCount = -1;
    private int _membersDecoded;
    private Member? _member;
    private long _consumedBefore;
    private long _pendingAfterLastRead;
    private bool _isComplete;
    private ExceptionDispatchInfo? _fault;

    public JsonOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public JsonOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
    {
        ArgumentNullException.ThrowIfNull(limits);
        _limits = limits;
        (_sink, _collector) = OrganizationCollector.Unless(sink);
        _maxPendingBytes = ((long)limits.MaxStringBytes * MaxEscapedBytesPerByte) + TokenOverhead;

        // One more level than the limit, so that our own check, which names the limit, fires before the reader's.
        var readerDepth = limits.MaxDepth >= int.MaxValue - 1 ? int.MaxValue : Math.Max(1, limits.MaxDepth + 1);
        _readerState = new JsonReaderState(new JsonReaderOptions { MaxDepth = readerDepth });
    }

    private enum Expect : byte
    {
        OrganizationStart,
        OrganizationProperty,
        OrganizationId,
        OrganizationTags,
        Tag,
        OrganizationMembers,
        MemberStart,
        MemberProperty,
        MemberId,
        MemberName,
        MemberDescription,
        MemberAddress,
        MemberValue,
        MemberUpdateTime,
        SkippedValue,
        SkippedNested,
        End,
    }

    [Flags]
    private enum OrganizationProperties : byte
    {
        None = 0,
        Id = 1,
        Tags = 2,
        Members = 4,
    }

    [Flags]
    private enum MemberProperties : byte
    {
        None = 0,
        Id = 1,
        Name = 2,
        Description = 4,
        Address = 8,
        Value = 16,
        UpdateTime = 32,
    }

    public bool IsComplete => _isComplete;

    public Organization GetResult() => OrganizationCollector.ResultOf(_collector, _isComplete);

    public SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        _fault?.Throw();
        try
        {
            return _isComplete ? DecodeAfterComplete(buffer) : DecodeTokens(buffer, isFinalBlock);
        }
        catch (WireFormatException e)
        {
            _fault = ExceptionDispatchInfo.Capture(e);
            throw;
        }
    }

    private SequencePosition DecodeTokens(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        // Reading an unfinished token again costs its whole length, so a long token trickled in a byte per call would
        // cost quadratic time. It is read again only once it has grown by a quarter (or reached the limit, or the
        // data has ended), which keeps the total linear; its bytes stay unconsumed in the caller's buffer meanwhile.
        if (!isFinalBlock && buffer.Length < _pendingAfterLastRead + (_pendingAfterLastRead / 4) && buffer.Length <= _maxPendingBytes)
        {
            return buffer.Start;
        }

        // Always read as if more may follow: a token is then only returned once it is certainly whole, and running
        // out of bytes before the root object closes is told apart from malformed input (Truncated, not Malformed).
        var reader = new Utf8JsonReader(buffer, isFinalBlock: false, _readerState);
        try
        {
            while (reader.Read())
            {
                Accept(ref reader);
            }
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
            // The reader's syntax errors and GetString's invalid UTF-8 / UTF-16 errors.
            throw new WireFormatException(WireFormatError.Malformed, $"Invalid JSON: {e.Message}", _consumedBefore + reader.BytesConsumed, innerException: e);
        }

        _readerState = reader.CurrentState;

        // The reader leaves whitespace before an unfinished token unconsumed; skipping it here keeps what is held
        // between calls to the token itself, however much whitespace a client sends.
        var consumed = reader.BytesConsumed + CountLeadingWhitespace(buffer.Slice(reader.BytesConsumed));
        var pending = buffer.Length - consumed;
        if (pending > _maxPendingBytes)
        {
            throw Error(WireFormatError.LimitExceeded, $"A JSON token is longer than {_maxPendingBytes} bytes, more than a string of MaxStringBytes ({_limits.MaxStringBytes}) bytes can take.", consumed, nameof(DecodeLimits.MaxStringBytes));
        }

        if (isFinalBlock)
        {
            // Only '{' opens a payload, and the reader returns it at once; a root that is still pending is a number or
            // some other value that only the end of the data completes.
            if (_expect == Expect.OrganizationStart && pending != 0)
            {
                throw Error(WireFormatError.Malformed, "The JSON payload is not an object.", consumed);
            }

            if (_expect != Expect.End || pending != 0)
            {
                throw Error(WireFormatError.Truncated, "The JSON payload ended before the organization object was closed.", buffer.Length);
            }

            _isComplete = true;
            _sink.Complete(new OrganizationHeader(_id, _tagArray, _memberCount));
        }

        _pendingAfterLastRead = pending;
        _consumedBefore += consumed;
        return buffer.GetPosition(consumed);
    }

    private SequencePosition DecodeAfterComplete(ReadOnlySequence<byte> buffer)
    {
        if (CountLeadingWhitespace(buffer) != buffer.Length)
        {
            throw Error(WireFormatError.Malformed, "Bytes follow the end of the JSON payload.", 0);
        }

        return buffer.End;
    }

    private void Accept(ref Utf8JsonReader reader)
    {
        var token = reader.TokenType;
        switch (_expect)
        {
            case Expect.OrganizationStart:
                Require(ref reader, token == JsonTokenType.StartObject, "the organization object");
                CheckDepth(ref reader);
                _expect = Expect.OrganizationProperty;
                break;

            case Expect.OrganizationProperty:
                if (token == JsonTokenType.EndObject)
                {
                    _expect = Expect.End;
                }
                else
                {
                    AcceptOrganizationProperty(ref reader);
                }

                break;

            case Expect.OrganizationId:
                _id = ReadInt32(ref reader);
                _expect = Expect.OrganizationProperty;
                break;

            case Expect.OrganizationTags:
                if (token == JsonTokenType.Null)
                {
                    _tagArray = null;
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                Require(ref reader, token == JsonTokenType.StartArray, "an array of tags or null");
                CheckDepth(ref reader);
                _tags = [];
                _expect = Expect.Tag;
                break;

            case Expect.Tag:
                if (token == JsonTokenType.EndArray)
                {
                    _tagArray = [.. _tags!];
                    _tags = null;
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                Require(ref reader, token == JsonTokenType.String, "a tag string");
                if (_tags!.Count >= _limits.MaxTags)
                {
                    throw Error(WireFormatError.LimitExceeded, $"More than MaxTags ({_limits.MaxTags}) tags.", reader.TokenStartIndex, nameof(DecodeLimits.MaxTags));
                }

                _tags.Add(ReadString(ref reader));
                break;

            case Expect.OrganizationMembers:
                if (token == JsonTokenType.Null)
                {
                    _memberCount = -1;
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                Require(ref reader, token == JsonTokenType.StartArray, "an array of members or null");
                CheckDepth(ref reader);
                _sink.BeginMembers(new OrganizationHeader(_id, _tagArray, -1));
                _expect = Expect.MemberStart;
                break;

            case Expect.MemberStart:
                if (token == JsonTokenType.EndArray)
                {
                    _memberCount = _membersDecoded;
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                Require(ref reader, token == JsonTokenType.StartObject, "a member object");
                CheckDepth(ref reader);
                if (_membersDecoded >= _limits.MaxMembers)
                {
                    throw Error(WireFormatError.LimitExceeded, $"More than MaxMembers ({_limits.MaxMembers}) members.", reader.TokenStartIndex, nameof(DecodeLimits.MaxMembers));
                }

                _member = new Member();
                _seenMember = MemberProperties.None;
                _expect = Expect.MemberProperty;
                break;

            case Expect.MemberProperty:
                if (token == JsonTokenType.EndObject)
                {
                    _membersDecoded++;
                    TransitionalMemberView.AddMember(_sink, _member!);
                    _member = null;
                    _expect = Expect.MemberStart;
                }
                else
                {
                    AcceptMemberProperty(ref reader);
                }

                break;

            case Expect.MemberId:
                _member!.Id = ReadInt32(ref reader);
                _expect = Expect.MemberProperty;
                break;

            case Expect.MemberName:
                _member!.Name = ReadNullableString(ref reader);
                _expect = Expect.MemberProperty;
                break;

            case Expect.MemberDescription:
                _member!.Description = ReadNullableString(ref reader);
                _expect = Expect.MemberProperty;
                break;

            case Expect.MemberAddress:
                _member!.Address = ReadNullableString(ref reader);
                _expect = Expect.MemberProperty;
                break;

            case Expect.MemberValue:
                _member!.Value = ReadDouble(ref reader);
                _expect = Expect.MemberProperty;
                break;

            case Expect.MemberUpdateTime:
                _member!.UpdateTime = ReadInt64(ref reader);
                _expect = Expect.MemberProperty;
                break;

            case Expect.SkippedValue:
                AcceptSkippedToken(ref reader);
                if (token is JsonTokenType.StartObject or JsonTokenType.StartArray)
                {
                    _skipDepth = reader.CurrentDepth;
                    _expect = Expect.SkippedNested;
                }
                else
                {
                    _expect = _afterSkip;
                }

                break;

            case Expect.SkippedNested:
                AcceptSkippedToken(ref reader);
                if (token is JsonTokenType.EndObject or JsonTokenType.EndArray && reader.CurrentDepth == _skipDepth)
                {
                    _expect = _afterSkip;
                }

                break;

            default:
                // The reader itself refuses a second top-level value; nothing else can arrive after the root.
                throw Error(WireFormatError.Malformed, "Bytes follow the end of the JSON payload.", reader.TokenStartIndex);
        }
    }

    private void AcceptOrganizationProperty(ref Utf8JsonReader reader)
    {
        if (reader.ValueTextEquals("id"u8))
        {
            See(ref reader, OrganizationProperties.Id, Expect.OrganizationId);
        }
        else if (reader.ValueTextEquals("tags"u8))
        {
            See(ref reader, OrganizationProperties.Tags, Expect.OrganizationTags);
        }
        else if (reader.ValueTextEquals("members"u8))
        {
            See(ref reader, OrganizationProperties.Members, Expect.OrganizationMembers);
        }
        else
        {
            SkipUnknownProperty(ref reader, Expect.OrganizationProperty);
        }
    }

    // In wire order, so that the usual member needs few comparisons.
    private void AcceptMemberProperty(ref Utf8JsonReader reader)
    {
        if (reader.ValueTextEquals("id"u8))
        {
            See(ref reader, MemberProperties.Id, Expect.MemberId);
        }
        else if (reader.ValueTextEquals("name"u8))
        {
            See(ref reader, MemberProperties.Name, Expect.MemberName);
        }
        else if (reader.ValueTextEquals("description"u8))
        {
            See(ref reader, MemberProperties.Description, Expect.MemberDescription);
        }
        else if (reader.ValueTextEquals("address"u8))
        {
            See(ref reader, MemberProperties.Address, Expect.MemberAddress);
        }
        else if (reader.ValueTextEquals("value"u8))
        {
            See(ref reader, MemberProperties.Value, Expect.MemberValue);
        }
        else if (reader.ValueTextEquals("updateTime"u8))
        {
            See(ref reader, MemberProperties.UpdateTime, Expect.MemberUpdateTime);
        }
        else
        {
            SkipUnknownProperty(ref reader, Expect.MemberProperty);
        }
    }

    private void See(ref Utf8JsonReader reader, OrganizationProperties property, Expect next)
    {
        if ((_seenOrganization & property) != 0)
        {
            throw Duplicate(ref reader);
        }

        _seenOrganization |= property;
        _expect = next;
    }

    private void See(ref Utf8JsonReader reader, MemberProperties property, Expect next)
    {
        if ((_seenMember & property) != 0)
        {
            throw Duplicate(ref reader);
        }

        _seenMember |= property;
        _expect = next;
    }

    private void SkipUnknownProperty(ref Utf8JsonReader reader, Expect resume)
    {
        // The name is read like any other string, so that it is held to the same UTF-8 and length rules.
        ReadString(ref reader);
        _afterSkip = resume;
        _expect = Expect.SkippedValue;
    }

    private void AcceptSkippedToken(ref Utf8JsonReader reader)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.StartObject or JsonTokenType.StartArray:
                CheckDepth(ref reader);
                break;
            case JsonTokenType.String or JsonTokenType.PropertyName:
                ReadString(ref reader);
                break;
        }
    }

    private string? ReadNullableString(ref Utf8JsonReader reader)
    {
        if (reader.TokenType == JsonTokenType.Null)
        {
            return null;
        }

        Require(ref reader, reader.TokenType == JsonTokenType.String, "a string or null");
        return ReadString(ref reader);
    }

    // Reads a string or property name, enforcing MaxStringBytes on its unescaped UTF-8 and rejecting invalid
    // UTF-8 and lone surrogates (GetString throws InvalidOperationException for both; it never substitutes).
    private string ReadString(ref Utf8JsonReader reader)
    {
        var rawLength = reader.HasValueSequence ? reader.ValueSequence.Length : reader.ValueSpan.Length;
        var escaped = reader.ValueIsEscaped;
        if (!escaped && rawLength > _limits.MaxStringBytes)
        {
            throw StringTooLong(ref reader);
        }

        var value = reader.GetString()!;

        // Unescaping only shortens, so only a long escaped string needs counting.
        if (escaped && rawLength > _limits.MaxStringBytes && Encoding.UTF8.GetByteCount(value) > _limits.MaxStringBytes)
        {
            throw StringTooLong(ref reader);
        }

        return value;
    }

    private int ReadInt32(ref Utf8JsonReader reader) =>
        reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out var value) ? value : throw Unexpected(ref reader, "an int32");

    private long ReadInt64(ref Utf8JsonReader reader) =>
        reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out var value) ? value : throw Unexpected(ref reader, "an int64");

    private double ReadDouble(ref Utf8JsonReader reader)
    {
        // The reader turns a literal too large for a double into an infinity; JSON spells infinities as strings.
        if (reader.TokenType == JsonTokenType.Number && reader.TryGetDouble(out var value) && double.IsFinite(value))
        {
            return value;
        }

        if (reader.TokenType == JsonTokenType.String)
        {
            if (reader.ValueTextEquals("NaN"u8))
            {
                return double.NaN;
            }

            if (reader.ValueTextEquals("Infinity"u8))
            {
                return double.PositiveInfinity;
            }

            if (reader.ValueTextEquals("-Infinity"u8))
            {
                return double.NegativeInfinity;
            }
        }

        throw Unexpected(ref reader, "a finite number, \"NaN\", \"Infinity\" or \"-Infinity\"");
    }

    private void CheckDepth(ref Utf8JsonReader reader)
    {
        // CurrentDepth of a start token counts the containers around it; the token opens one more.
        if (reader.CurrentDepth >= _limits.MaxDepth)
        {
            throw Error(WireFormatError.LimitExceeded, $"JSON nested deeper than MaxDepth ({_limits.MaxDepth}).", reader.TokenStartIndex, nameof(DecodeLimits.MaxDepth));
        }
    }

    private void Require(ref Utf8JsonReader reader, bool condition, string expected)
    {
        if (!condition)
        {
            throw Unexpected(ref reader, expected);
        }
    }

    private WireFormatException Unexpected(ref Utf8JsonReader reader, string expected) =>
        Error(WireFormatError.Malformed, $"Expected {expected}, found {reader.TokenType}.", reader.TokenStartIndex);

    private WireFormatException Duplicate(ref Utf8JsonReader reader) =>
        Error(WireFormatError.Malformed, $"The property '{reader.GetString()}' appears twice.", reader.TokenStartIndex);

    private WireFormatException StringTooLong(ref Utf8JsonReader reader) =>
        Error(WireFormatError.LimitExceeded, $"A string is longer than MaxStringBytes ({_limits.MaxStringBytes}) bytes.", reader.TokenStartIndex, nameof(DecodeLimits.MaxStringBytes));

    private WireFormatException Error(WireFormatError error, string message, long offsetInBuffer, string? limit = null) =>
        new(error, message, _consumedBefore + offsetInBuffer, limit);

    private static long CountLeadingWhitespace(ReadOnlySequence<byte> buffer)
    {
        var reader = new SequenceReader<byte>(buffer);
        return reader.AdvancePastAny((byte)' ', (byte)'\t', (byte)'\n', (byte)'\r');
    }
}
