using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// Decodes the JSON form of an <see cref="Organization"/> (see <see cref="JsonCodec"/>) incrementally. A
/// <see cref="Utf8JsonReader"/> reads whatever has arrived, one segment at a time (a token that straddles two is
/// read from a copy), and its state is carried from one segment and one call to the next; every complete token is
/// consumed at once, so between calls the decoder holds at most one unfinished token, however large the body, and a
/// member may span calls. Each member goes to the <see cref="IOrganizationSink"/> as a view as soon as its object
/// closes: its numbers from this decoder's fields, its texts from buffers it reuses (<see cref="JsonTextBuffer"/>), so
/// decoding allocates nothing per member. Members are mapped here rather than by System.Text.Json's source-generated
/// <c>Member</c> deserializer because that lacks the policy: it allocates each string before MaxStringBytes can be
/// checked.
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
/// byte), so a string that never ends is refused (LimitExceeded, MaxStringBytes) before it fills memory.</item>
/// </list>
/// </remarks>
internal sealed class JsonOrganizationDecoder : OrganizationDecoder
{
    // The longest escape (\uXXXX) is 6 bytes for at least one byte of UTF-8, plus the quotes around a string.
    private const int MaxEscapedBytesPerByte = 6;
    private const int TokenOverhead = 2;

    // The shortest member, {}.
    private const int MinMemberBytes = 2;

    private readonly long _maxPendingBytes;
    private readonly JsonMemberFields _member = new();

    // A tag, or a string of an unknown property (read to be checked like any other, then dropped).
    private readonly JsonTextBuffer _otherText = new();
    private JsonReaderState _readerState;
    private Expect _expect = Expect.OrganizationStart;
    private Expect _afterSkip;
    private int _skipDepth;
    private OrganizationProperties _seenOrganization;

    // The payload offset of the span being read: the reader's positions are relative to it.
    private long _spanOffset;

    public JsonOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public JsonOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
        : base(limits, sink, MinMemberBytes)
    {
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
        MemberValue,
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

    protected override long MaxPendingBytes => _maxPendingBytes;

    protected override void RefuseOverlongUnit(long offset) => TokenTooLong(offset);

    protected override int DecodeUnits(ReadOnlySpan<byte> span, long offset)
    {
        // Always read as if more may follow: a token is then only returned once it is certainly whole, and running
        // out of bytes before the root object closes is told apart from malformed input (Truncated, not Malformed).
        // The reader starts at readerStart in span: at 0, and again after the members the fast path took.
        var readerStart = 0;
        _spanOffset = offset;
        var reader = new Utf8JsonReader(span, isFinalBlock: false, _readerState);
        try
        {
            while (_expect != Expect.End && reader.Read())
            {
                // A token that long is refused however it arrives: whole in one span, or pending (RefuseOverlongUnit).
                if (reader.BytesConsumed - reader.TokenStartIndex > _maxPendingBytes)
                {
                    TokenTooLong(_spanOffset + reader.TokenStartIndex);
                }

                Accept(ref reader);

                // After a member, the members that follow in this span's bytes go through the fast path while they
                // have its shape; the reader resumes after them in the state it had after this one, which is the
                // state it would have after each of them (in the array, after an object).
                if (_expect == Expect.MemberStart && reader.TokenType == JsonTokenType.EndObject)
                {
                    var next = readerStart + (int)reader.BytesConsumed;
                    var taken = ReadCommonMembers(span[next..]);
                    if (taken > 0)
                    {
                        readerStart = next + taken;
                        _spanOffset = offset + readerStart;
                        reader = new Utf8JsonReader(span[readerStart..], isFinalBlock: false, reader.CurrentState);
                    }
                }
            }
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
            // The reader's syntax errors, and CopyString's invalid UTF-8 and lone surrogates. The reader's own
            // position in its message counts from where it last resumed; the offset here is the payload's.
            WireFormatThrow.Malformed(_spanOffset + reader.BytesConsumed, $"Invalid JSON: {WithoutReaderPosition(e.Message)}", e);
        }

        _readerState = reader.CurrentState;
        var used = readerStart + (int)reader.BytesConsumed;

        // The reader leaves whitespace before an unfinished token unconsumed; skipping it here keeps what is held
        // between calls to the token itself, however much whitespace a client sends. After the root object,
        // RejectBytesAfterPayload takes the rest.
        return _expect == Expect.End ? used : used + CountLeadingWhitespace(span[used..]);
    }

    protected override void EndOfPayload(long unconsumed, long bufferLength)
    {
        // Only '{' opens a payload, and the reader returns it at once; a root that is still pending is a number or
        // some other value that only the end of the data completes.
        if (_expect == Expect.OrganizationStart && unconsumed != 0)
        {
            WireFormatThrow.Malformed(Consumed + bufferLength - unconsumed, "The JSON payload is not an object.");
        }

        base.EndOfPayload(unconsumed, bufferLength);
    }

    protected override string DescribeUnfinished() => _expect switch
    {
        Expect.OrganizationStart => "whitespace, before the organization object",
        >= Expect.MemberStart and <= Expect.MemberValue => "the members",
        Expect.Tag => "the tags",
        _ => "the organization object",
    };

    // Whitespace may follow the root object; anything else is Malformed, at its first byte.
    protected override void RejectBytesAfterPayload(ReadOnlySequence<byte> rest, long offsetInBuffer)
    {
        long whitespace = 0;
        foreach (var segment in rest)
        {
            var count = CountLeadingWhitespace(segment.Span);
            whitespace += count;
            if (count < segment.Length)
            {
                WireFormatThrow.Malformed(Consumed + offsetInBuffer + whitespace, "Bytes follow the end of the JSON payload.");
            }
        }
    }

    // Members of the usual shape, whole in span, up to MaxMembers (the reader refuses the one after, at its offset).
    private int ReadCommonMembers(ReadOnlySpan<byte> span)
    {
        var taken = 0;
        while (MembersDecoded < Limits.MaxMembers && JsonMemberFastPath.TryRead(span[taken..], Limits.MaxStringBytes, out var member, out var length))
        {
            AddMember(member);
            taken += length;
        }

        return taken;
    }

    // System.Text.Json ends its messages with " LineNumber: n | BytePositionInLine: n."; its count starts where the
    // reader last started, so the payload offset reported beside the message is the position that holds.
    private static string WithoutReaderPosition(string message)
    {
        var position = message.LastIndexOf(" LineNumber:", StringComparison.Ordinal);
        return position < 0 ? message : message[..position];
    }

    private static int CountLeadingWhitespace(ReadOnlySpan<byte> span)
    {
        var index = span.IndexOfAnyExcept(" \t\n\r"u8);
        return index < 0 ? span.Length : index;
    }

    private void Accept(ref Utf8JsonReader reader)
    {
        var token = reader.TokenType;
        switch (_expect)
        {
            case Expect.OrganizationStart:
                JsonScalars.Require(ref reader, _spanOffset, token == JsonTokenType.StartObject, "the organization object");
                CheckDepth(ref reader);
                _expect = Expect.OrganizationProperty;
                break;

            case Expect.OrganizationProperty:
                if (token == JsonTokenType.EndObject)
                {
                    _expect = Expect.End;
                    Complete(MemberCount);
                }
                else
                {
                    AcceptOrganizationProperty(ref reader);
                }

                break;

            case Expect.OrganizationId:
                Id = JsonScalars.ReadInt32(ref reader, _spanOffset);
                _expect = Expect.OrganizationProperty;
                break;

            case Expect.OrganizationTags:
                if (token == JsonTokenType.Null)
                {
                    EndTags(isNull: true);
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                JsonScalars.Require(ref reader, _spanOffset, token == JsonTokenType.StartArray, "an array of tags or null");
                CheckDepth(ref reader);
                _expect = Expect.Tag;
                break;

            case Expect.Tag:
                if (token == JsonTokenType.EndArray)
                {
                    EndTags();
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                JsonScalars.Require(ref reader, _spanOffset, token == JsonTokenType.String, "a tag string");

                // A tag too many is refused (by AddTag) before its text is read, whatever that holds.
                string? tag = null;
                if (TagsRead < Limits.MaxTags)
                {
                    ReadText(ref reader, _otherText);
                    tag = _otherText.ToStringOrNull();
                }

                AddTag(tag, _spanOffset + reader.TokenStartIndex);
                break;

            case Expect.OrganizationMembers:
                if (token == JsonTokenType.Null)
                {
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                JsonScalars.Require(ref reader, _spanOffset, token == JsonTokenType.StartArray, "an array of members or null");
                CheckDepth(ref reader);
                BeginMembers(-1);
                _expect = Expect.MemberStart;
                break;

            case Expect.MemberStart:
                if (token == JsonTokenType.EndArray)
                {
                    MemberCount = MembersDecoded;
                    _expect = Expect.OrganizationProperty;
                    break;
                }

                StartMember(ref reader);
                break;

            case Expect.MemberProperty:
                if (token == JsonTokenType.EndObject)
                {
                    AddMember(_member.View);
                    _expect = Expect.MemberStart;
                }
                else if (_member.AcceptName(ref reader, _spanOffset))
                {
                    _expect = Expect.MemberValue;
                }
                else
                {
                    SkipUnknownProperty(ref reader, Expect.MemberProperty);
                }

                break;

            case Expect.MemberValue:
                _member.AcceptValue(ref reader, Limits.MaxStringBytes, _spanOffset);
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
        }
    }

    private void StartMember(ref Utf8JsonReader reader)
    {
        JsonScalars.Require(ref reader, _spanOffset, reader.TokenType == JsonTokenType.StartObject, "a member object");
        CheckDepth(ref reader);
        if (MembersDecoded >= Limits.MaxMembers)
        {
            WireFormatThrow.LimitExceeded(_spanOffset + reader.TokenStartIndex, nameof(DecodeLimits.MaxMembers), $"More than MaxMembers ({Limits.MaxMembers}) members.");
        }

        _member.Start();
        _expect = Expect.MemberProperty;
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

    private void See(ref Utf8JsonReader reader, OrganizationProperties property, Expect next)
    {
        if ((_seenOrganization & property) != 0)
        {
            JsonScalars.Duplicate(ref reader, _spanOffset);
        }

        _seenOrganization |= property;
        _expect = next;
    }

    private void SkipUnknownProperty(ref Utf8JsonReader reader, Expect resume)
    {
        // The name is read like any other string, so that it is held to the same UTF-8 and length rules.
        ReadText(ref reader, _otherText);
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
                ReadText(ref reader, _otherText);
                break;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ReadText(ref Utf8JsonReader reader, JsonTextBuffer text) => text.Read(ref reader, Limits.MaxStringBytes, _spanOffset);

    private void CheckDepth(ref Utf8JsonReader reader)
    {
        // CurrentDepth of a start token counts the containers around it; the token opens one more.
        if (reader.CurrentDepth >= Limits.MaxDepth)
        {
            WireFormatThrow.LimitExceeded(_spanOffset + reader.TokenStartIndex, nameof(DecodeLimits.MaxDepth), $"JSON nested deeper than MaxDepth ({Limits.MaxDepth}).");
        }
    }

    [DoesNotReturn]
    private void TokenTooLong(long offset) =>
        WireFormatThrow.LimitExceeded(
            offset,
            nameof(DecodeLimits.MaxStringBytes),
            $"A JSON token is longer than {_maxPendingBytes} bytes, more than a string of MaxStringBytes ({Limits.MaxStringBytes}) bytes can take.");
}
