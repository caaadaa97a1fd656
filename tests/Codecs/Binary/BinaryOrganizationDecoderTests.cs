namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// What the decoder does with bytes that are not a valid payload. Each case quotes the docs/binary-format.md rule it
/// breaks. Hand-made payloads start with <see cref="NoTags"/>: magic, version 1, organization id 0, tags null.
/// </summary>
public class BinaryOrganizationDecoderTests
{
    private static readonly BinaryCodec Codec = BinaryCodec.Instance;

    private const string NoTags = "57 53 42 46 01 00 00 ";

    [Theory]
    [InlineData("57 53 42 46 02")]
    [InlineData("57 53 42 46 00")]
    [InlineData("57 53 42 46 FF 00 00 00")]
    public void AnyOtherVersionIsRejectedBeforeTheRestIsRead(string hex)
    {
        // "A reader rejects any version it does not implement as Malformed, before reading anything after the version byte"
        var exception = DecodeFailure(Codec, new ReadOnlySequence<byte>(Hex(hex)), isFinalBlock: false);

        Assert.Equal(WireFormatError.Malformed, exception.Error);
        Assert.Contains("version", exception.Message, StringComparison.Ordinal);
        Assert.Equal(4, exception.Offset);
    }

    // Each row breaks a rule of docs/binary-format.md; where the row gives a word, the message names what is wrong.
    public static TheoryData<string, string> WhatTheSpecForbids => new()
    {
        { "57 53 42 46 01 FF FF FF FF FF FF FF FF FF FF FF 00 00", "varint" }, // "A varint32 takes at most 5 bytes": 11 continuation bytes
        { "57 53 42 46 01 FF FF FF FF 10 00 00", "varint" }, // "its 5th byte may not exceed 0x0F": 33 bits
        { "57 53 42 46 01 80 00 00 00", "varint" }, // "may not end with 0x00": not minimal
        { NoTags + "02 80 00 00 FF FF FF FF FF FF FF FF FF FF FF 00", "varint" }, // "A varint64 takes at most 10 bytes": 11 continuation bytes
        { NoTags + "02 80 00 00 FF FF FF FF FF FF FF FF FF 02", "varint" }, // "its 10th byte may not exceed 0x01": 65 bits
        { NoTags + "02 80 00 00 81 80 00", "varint" }, // "may not end with 0x00": not minimal

        // "A reader rejects ill-formed UTF-8 (overlong forms, encoded surrogates, bytes above F4, truncated sequences) as Malformed."
        { "57 53 42 46 01 00 02 03 C3 28 00", "UTF-8" }, // a lead byte followed by ASCII
        { "57 53 42 46 01 00 02 03 C0 80 00", "UTF-8" }, // an overlong form of U+0000
        { "57 53 42 46 01 00 02 04 ED A0 80 00", "UTF-8" }, // an encoded surrogate
        { "57 53 42 46 01 00 02 05 F5 80 80 80 00", "UTF-8" }, // above U+10FFFF
        { "57 53 42 46 01 00 02 03 E6 9D 00", "UTF-8" }, // a sequence cut short at the end of the text
        { NoTags + "02 82 00 00 02 FF 00 00", "UTF-8" }, // "Text (kind 1)" whose text is not UTF-8
        { NoTags + "03 82 00 00 04 C3 A9 00 00 83 01 02 28 00 00", "UTF-8" }, // prefix C3 of "é" followed by "("

        // A prefix longer than the previous value.
        { NoTags + "02 82 00 01 00 00 00", "prefix" }, // the first member has no previous value to share with
        { NoTags + "03 82 00 00 02 41 00 00 83 02 00 00 00", "prefix" }, // "A" has 1 byte, not 2

        // "number must be below 10^19": 10^19 is 80 80 A0 CF C8 E0 C8 E3 8A 01.
        { NoTags + "02 84 00 00 80 80 A0 CF C8 E0 C8 E3 8A 01 00 00", "" }, // kind 2
        { NoTags + "02 86 00 80 80 A0 CF C8 E0 C8 E3 8A 01 00 00", "" }, // kind 3
        { NoTags + "02 82 00 00 01 80 80 A0 CF C8 E0 C8 E3 8A 01 00 00", "" }, // kind 1 with a number

        // "A reader rejects an integer that binary64 cannot hold exactly"
        { NoTags + "02 80 00 82 80 80 80 80 80 80 20 00", "" }, // zigzag(2^53 + 1) = 2^54 + 2
        { NoTags + "02 80 00 FE FF FF FF FF FF FF FF FF 01 00", "" }, // zigzag(long.MaxValue)
    };

    [Theory]
    [MemberData(nameof(WhatTheSpecForbids))]
    public void RejectsWhatTheSpecForbidsAsMalformed(string hex, string named)
    {
        var exception = DecodeFailsWhereverItStands(Hex(hex));

        Assert.Equal(WireFormatError.Malformed, exception.Error);
        Assert.Contains(named, exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void APrefixShareOfHalfACodePointIsFineWhenTheWholeIsUtf8()
    {
        // The same as the last UTF-8 case above but for the suffix A9: "é", then "é" again from a 1-byte prefix and 1-byte suffix.
        var decoded = Decode(Codec, Hex(NoTags + "03 82 00 00 04 C3 A9 00 00 83 01 02 A9 00 00"));

        Assert.Equal(["é", "é"], decoded.Members!.Select(member => member.Name));
    }

    [Fact]
    public void ValidChoicesThisWriterWouldNotMakeAreRead()
    {
        // "A reader accepts any valid choice": digits in a kind 1 text before its number, a prefix of 0 where one was
        // possible, digits as text, and an integral value in its float64 form.
        var decoded = Decode(Codec, Hex(NoTags + "05"
            + "02 00 00 05 61 35 03 00 00 00 00 00 00 08 40 00"
            + "05 00 00 00 00 00 00 00 00 08 40 00"
            + "03 01 06 30 30 37 00 00 00 00 00 00 08 40 00"
            + "87 09 06 00"));

        Assert.Equal(["a53", "0", "0007", "9"], decoded.Members!.Select(member => member.Name));
        Assert.Equal([0, 1, 2, 3], decoded.Members!.Select(member => member.Id));
        Assert.All(decoded.Members!, member => Assert.Equal(3.0, member.Value));
    }

    [Fact]
    public void AStemAndNumberTextReplacesAllTheTrailingDigitsOfThePreviousValue()
    {
        // Kind 3 after "a12", then after "a5", then after null: "stem(previous) + decimal(number)".
        var decoded = Decode(Codec, Hex(NoTags + "05 82 00 00 03 61 0C 00 00 87 05 00 00 81 00 00 87 07 00 00"));

        Assert.Equal(["a12", "a5", null, "7"], decoded.Members!.Select(member => member.Name));
    }

    [Fact]
    public void ADeclaredCountFarBeyondTheBytesReservesOnlyWhatTheBytesReceivedCouldHold()
    {
        // 2,000,000 members declared (the default limit), then 10,000 of the smallest members there are (next id, null
        // texts, integer value 0, no time delta: 3 bytes each), streamed in 1 KB chunks, and the payload ends.
        var payload = Hex(NoTags + "81 89 7A" + string.Concat(Enumerable.Repeat("81 00 00 ", 10_000)));
        DecodeFailure(Codec, payload, chunkSize: 1024);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var exception = DecodeFailure(Codec, payload, chunkSize: 1024);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        // The 10,000 members take 640 KB and their list at most a slot per 3 bytes received; a list sized by the
        // declared count would take 16 MB on its own.
        Assert.Equal(WireFormatError.Truncated, exception.Error);
        Assert.True(allocated < 1_500_000, $"Decoding 10,000 members of 2,000,000 declared allocated {allocated:N0} bytes.");
    }

    [Fact]
    public void TighterLimitsAreEnforced()
    {
        var limits = new DecodeLimits { MaxMembers = 2, MaxTags = 1, MaxStringBytes = 9 };

        Assert.Equal(nameof(DecodeLimits.MaxMembers), DecodeFailure(Codec, Hex(NoTags + "04"), limits: limits).Limit);
        Assert.Equal(nameof(DecodeLimits.MaxTags), DecodeFailure(Codec, Hex("57 53 42 46 01 00 03"), limits: limits).Limit);

        // "TestName1" is 9 bytes and fits; "TestName10" is 10 once the number is written out.
        var names = new Organization { Members = [new Member { Name = "TestName1" }, new Member { Name = "TestName10" }] };
        Assert.Equal(nameof(DecodeLimits.MaxStringBytes), DecodeFailsWhereverItStands(Encode(Codec, names), limits).Limit);
    }

    // The decoder reads members in a fast loop while enough bytes remain after them, and hands any member that loop does
    // not take to the unit reader, which rejects it. A hand-made payload is short, so its members are read by the unit
    // reader alone; the same payload followed by 64 more bytes puts every member in reach of the fast loop. Both must
    // fail alike: the same error, message, offset and limit.
    private static WireFormatException DecodeFailsWhereverItStands(byte[] payload, DecodeLimits? limits = null)
    {
        var alone = DecodeFailure(Codec, payload, limits: limits);
        var followed = DecodeFailure(Codec, [.. payload, .. new byte[64]], limits: limits);

        Assert.Equal(alone.Error, followed.Error);
        Assert.Equal(alone.Message, followed.Message);
        Assert.Equal(alone.Offset, followed.Offset);
        Assert.Equal(alone.Limit, followed.Limit);
        return alone;
    }
}
