namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>
/// The decoder against untrusted input: every valid format of a value is accepted, and everything else fails with a
/// <see cref="WireFormatException"/> only. That no declared count or length makes it allocate before the bytes are
/// there is a theory over every format, in OrganizationDecoderTests.
/// </summary>
public class MessagePackOrganizationDecoderTests
{
    private static readonly MessagePackCodec Codec = MessagePackCodec.Instance;

    // [0, nil, [member]] around a member, and a member around one field under test.
    private const string OneMemberOrganization = "93 00 c0 91";
    private const string ZeroFloat64 = "cb 00 00 00 00 00 00 00 00";

    [Theory]
    [InlineData("05", 5)]
    [InlineData("cc 05", 5)] // uint 8
    [InlineData("cd 00 05", 5)] // uint 16
    [InlineData("ce 00 00 00 05", 5)] // uint 32
    [InlineData("cf 00 00 00 00 00 00 00 05", 5)] // uint 64
    [InlineData("cf 00 00 00 00 7f ff ff ff", int.MaxValue)]
    [InlineData("d0 05", 5)] // int 8 holding a positive value
    [InlineData("d0 fb", -5)]
    [InlineData("d1 ff fb", -5)] // int 16
    [InlineData("d2 ff ff ff fb", -5)] // int 32
    [InlineData("d3 ff ff ff ff ff ff ff fb", -5)] // int 64
    [InlineData("d3 ff ff ff ff 80 00 00 00", int.MinValue)]
    [InlineData("e0", -32)]
    public void AcceptsEveryIntFormatForAnId(string hex, int expected)
    {
        var organization = Decode(Codec, Hex($"93 {hex} c0 91 96 {hex} c0 c0 c0 {ZeroFloat64} {hex}"));

        Assert.Equal(expected, organization.Id);
        Assert.Equal(expected, organization.Members![0].Id);
        Assert.Equal(expected, organization.Members[0].UpdateTime);
    }

    [Theory]
    [InlineData("cf 7f ff ff ff ff ff ff ff", long.MaxValue)]
    [InlineData("d3 80 00 00 00 00 00 00 00", long.MinValue)]
    [InlineData("ce ff ff ff ff", 4294967295L)]
    public void AcceptsTheWholeInt64RangeForUpdateTime(string hex, long expected)
    {
        var organization = Decode(Codec, Hex($"{OneMemberOrganization} 96 00 c0 c0 c0 {ZeroFloat64} {hex}"));

        Assert.Equal(expected, organization.Members![0].UpdateTime);
    }

    [Theory]
    [InlineData("ce 80 00 00 00")] // 2^31
    [InlineData("cf 00 00 00 01 00 00 00 00")] // 2^32
    [InlineData("d3 ff ff ff ff 7f ff ff ff")] // -2^31 - 1
    [InlineData("cf ff ff ff ff ff ff ff ff")] // 2^64 - 1
    public void RejectsAnIdOutsideTheInt32Range(string hex)
    {
        var exception = DecodeFailure(Codec, Hex($"93 {hex} c0 c0"));

        Assert.Equal(WireFormatError.Malformed, exception.Error);
        Assert.Equal(1, exception.Offset);
    }

    // Inside a member, with more bytes behind the value than it takes: where the decoder reads a uint in one load.
    [Theory]
    [InlineData("ce 80 00 00 00", "00")] // Id 2^31
    [InlineData("cf ff ff ff ff ff ff ff ff", "00")] // Id 2^64 - 1
    [InlineData("00", "cf 80 00 00 00 00 00 00 00")] // UpdateTime 2^63
    public void RejectsAMembersIntegerOutsideItsRangeWithMoreBytesBehindIt(string id, string updateTime)
    {
        var member = $"96 {id} c0 c0 c0 {ZeroFloat64} {updateTime}";
        var exception = DecodeFailure(Codec, Hex($"93 00 c0 92 {member} 96 00 c0 c0 c0 {ZeroFloat64} 00"));

        Assert.Equal(WireFormatError.Malformed, exception.Error);
        Assert.Equal(id == "00" ? 5 + 1 + 3 + 9 : 5, exception.Offset);
        Assert.Contains(id == "00" ? "Member.UpdateTime" : "Member.Id", exception.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("cb 3f f8 00 00 00 00 00 00", 0x3ff8000000000000L)] // float 64: 1.5
    [InlineData("ca 3f c0 00 00", 0x3ff8000000000000L)] // float 32: 1.5
    [InlineData("ca ff 80 00 00", unchecked((long)0xfff0000000000000UL))] // float 32: -infinity
    [InlineData("ca 80 00 00 00", unchecked((long)0x8000000000000000UL))] // float 32: -0.0
    [InlineData("02", 0x4000000000000000L)] // a whole number, as JavaScript encoders write one: 2.0
    [InlineData("d0 fe", unchecked((long)0xc000000000000000UL))] // -2.0
    [InlineData("cf ff ff ff ff ff ff ff ff", 0x43f0000000000000L)] // 2^64 - 1 rounds to 2^64
    public void AcceptsFloat32AndWholeNumbersForValue(string hex, long expectedBits)
    {
        var organization = Decode(Codec, Hex($"{OneMemberOrganization} 96 00 c0 c0 c0 {hex} 00"));

        Assert.Equal(expectedBits, BitConverter.DoubleToInt64Bits(organization.Members![0].Value));
    }

    [Theory]
    [InlineData("a1 61")]
    [InlineData("d9 01 61")] // str 8 where fixstr would do
    [InlineData("da 00 01 61")] // str 16
    [InlineData("db 00 00 00 01 61")] // str 32
    public void AcceptsEveryStrFormat(string hex)
    {
        var organization = Decode(Codec, Hex($"93 00 91 {hex} 91 96 00 {hex} {hex} {hex} {ZeroFloat64} 00"));

        Assert.Equal(["a"], organization.Tags!);
        Assert.Equal(("a", "a", "a"), (organization.Members![0].Name, organization.Members[0].Description, organization.Members[0].Address));
    }

    [Theory]
    [InlineData("93", "91", "96")]
    [InlineData("dc 00 03", "dc 00 01", "dc 00 06")] // array 16 where fixarray would do
    [InlineData("dd 00 00 00 03", "dd 00 00 00 01", "dd 00 00 00 06")] // array 32
    public void AcceptsEveryArrayFormat(string organizationHeader, string collectionHeader, string memberHeader)
    {
        var organization = Decode(Codec, Hex($"{organizationHeader} 07 {collectionHeader} a0 {collectionHeader} {memberHeader} 08 c0 c0 c0 {ZeroFloat64} 09"));

        Assert.Equal(7, organization.Id);
        Assert.Equal([string.Empty], organization.Tags!);
        Assert.Equal((8, 9L), (organization.Members![0].Id, organization.Members[0].UpdateTime));
    }

    public static TheoryData<string, string> ValuesOfTheWrongFormat => new()
    {
        { "c0", "the payload is nil, not an organization" },
        { "83 00 01 01 c0 02 c0", "fixmap: this layout is array-keyed, not map-keyed" },
        { "92 01 c0", "an organization has exactly 3 elements" },
        { "94 01 c0 c0 c0", "an organization has exactly 3 elements" },
        { "93 cb 3f f0 00 00 00 00 00 00 c0 c0", "Id is an int, not float 64" },
        { "93 a1 31 c0 c0", "Id is an int, not a string" },
        { "93 c0 c0 c0", "Id is an int, not nil" },
        { "93 c3 c0 c0", "Id is an int, not true" },
        { "93 01 a0 c0", "Tags is an array or nil, not a string" },
        { "93 01 80 c0", "Tags is an array or nil, not a map" },
        { "93 01 91 c4 01 61 c0", "a tag is str or nil, not bin 8" },
        { "93 01 91 01 c0", "a tag is str or nil, not an int" },
        { "93 01 91 90 c0", "a tag is str or nil, not an array: nesting deeper than the model" },
        { "93 01 91 d4 01 61 c0", "a tag is str or nil, not fixext 1" },
        { "93 01 91 c1 c0", "0xc1 is never used" },
        { "93 01 c0 a0", "Members is an array or nil, not a string" },
        { "93 01 c0 91 c0", "a member is an array, not nil" },
        { "93 01 c0 91 86 00 00 01 c0 02 c0 03 c0 04 00 05 00", "a member is an array, not a map" },
        { "93 01 c0 91 95 00 c0 c0 c0 cb 00 00 00 00 00 00 00 00", "a member has exactly 6 elements" },
        { "93 01 c0 91 97 00 c0 c0 c0 cb 00 00 00 00 00 00 00 00 00 00", "a member has exactly 6 elements" },
        { "93 01 c0 91 96 00 91 a0 c0 c0 cb 00 00 00 00 00 00 00 00 00", "Name is str or nil, not an array" },
        { "93 01 c0 91 96 00 c0 c0 c0 c0 00", "Value is a number, not nil" },
        { "93 01 c0 91 96 00 c0 c0 c0 a1 31 00", "Value is a number, not a string" },
        { "93 01 c0 91 96 00 c0 c0 c0 cb 00 00 00 00 00 00 00 00 ca 00 00 00 00", "UpdateTime is an int, not float 32" },
        { "93 00 c0 91 96 00 c0 c0 c0 cb 00 00 00 00 00 00 00 00 cf 80 00 00 00 00 00 00 00", "UpdateTime is an int64, not beyond it" },
    };

    [Theory]
    [MemberData(nameof(ValuesOfTheWrongFormat))]
    public void RejectsAValueOfTheWrongFormatAsMalformed(string hex, string rule)
    {
        var exception = DecodeFailure(Codec, Hex(hex));

        Assert.True(exception.Error == WireFormatError.Malformed, $"{rule}: got {exception.Error}: {exception.Message}");
        Assert.NotNull(exception.Offset);
    }

    [Theory]
    [InlineData("c3 28", "a continuation byte is missing")]
    [InlineData("80", "a lone continuation byte")]
    [InlineData("ed a0 80", "an encoded surrogate (U+D800)")]
    [InlineData("c0 80", "an overlong encoding of U+0000")]
    [InlineData("e0 80 af", "an overlong encoding of '/'")]
    [InlineData("f4 90 80 80", "beyond U+10FFFF")]
    [InlineData("f8 88 80 80 80", "a five-byte sequence")]
    [InlineData("61 e2 82", "a sequence cut by the end of the string")]
    [InlineData("ff", "a byte that never occurs in UTF-8")]
    public void RejectsInvalidUtf8RatherThanReplacingIt(string utf8, string why)
    {
        var bytes = Hex(utf8);

        var exception = DecodeFailure(Codec, Hex($"93 01 91 {0xa0 | bytes.Length:x2} {utf8} c0"));

        Assert.True(exception.Error == WireFormatError.Malformed, $"{why}: got {exception.Error}");
        Assert.Equal(3, exception.Offset);
    }

    [Fact]
    public void ConsumesOnlyWholeMembers()
    {
        var organization = OrganizationGen.Extremes();
        var payload = Encode(Codec, organization);
        var withFirstMember = Encode(Codec, new Organization { Id = organization.Id, Tags = organization.Tags, Members = [organization.Members![0]] });
        var decoder = Codec.CreateDecoder(DecodeLimits.Default);

        // Cut inside the second member: the first is consumed, the second left for the next call.
        var position = decoder.Decode(new ReadOnlySequence<byte>(payload, 0, withFirstMember.Length + 5), isFinalBlock: false);

        Assert.Equal(withFirstMember.Length, position.GetInteger());
        Assert.False(decoder.IsComplete);
        Assert.Throws<InvalidOperationException>(decoder.GetResult);
    }

    // The organization's array holds the member list, which holds the members: 3 levels (the other limits are one theory over every format).
    [Fact]
    public void EnforcesMaxDepthAsConfigured()
    {
        var payload = Encode(Codec, new Organization { Id = 1, Tags = ["a"], Members = [new Member()] });

        Decode(Codec, payload, limits: DecodeLimits.Default with { MaxDepth = 3 });
        var exception = DecodeFailure(Codec, payload, limits: DecodeLimits.Default with { MaxDepth = 2 });

        Assert.Equal((WireFormatError.LimitExceeded, nameof(DecodeLimits.MaxDepth)), (exception.Error, exception.Limit));
    }
}
