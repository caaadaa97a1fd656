using WebSerialization.Codecs.Tests.Libraries;

namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>
/// The bytes MessagePack-CSharp writes for the array-keyed model, at every edge of its format choices: the smallest int,
/// str and array header, float 64 for every double, U+FFFD for a lone surrogate. The library decides those bytes, so
/// they are taken from it; hand-written hex stays only for the layout docs/messagepack-layout.md prints.
/// </summary>
public class MessagePackOrganizationEncoderTests
{
    public static TheoryData<long> IntegerEdges =>
    [
        0, 1, 127, 128, 255, 256, 65_535, 65_536, int.MaxValue, -1, -32, -33, -128, -129, -32_768, -32_769, int.MinValue,
        4_294_967_295, 4_294_967_296, 1_702_247_304_000, long.MaxValue, -2_147_483_649, long.MinValue,
    ];

    [Fact]
    public void WritesTheDocumentedExample()
    {
        // docs/messagepack-layout.md: [1, ["a"], [[1, "n", "d", "a", 1.5, 1702247304000]]]
        var organization = new Organization
        {
            Id = 1,
            Tags = ["a"],
            Members = [new Member { Id = 1, Name = "n", Description = "d", Address = "a", Value = 1.5, UpdateTime = 1_702_247_304_000 }],
        };

        var expected = Hex("93 01 91 a1 61 91 96 01 a1 6e a1 64 a1 61 cb 3f f8 00 00 00 00 00 00 cf 00 00 01 8c 55 d8 8b 40");
        Assert.Equal(expected, Encode(MessagePackCodec.Instance, organization));
    }

    // The attributes on the model are the seed's contract, so the library writes random organizations as we do.
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void WritesRandomOrganizationsAsTheLibraryDoes(int seed) => AssertAsLibrary(OrganizationGen.Random(seed, 200));

    [Theory]
    [InlineData(false, false)]
    [InlineData(true, false)]
    [InlineData(false, true)]
    [InlineData(true, true)]
    public void WritesNullAndEmptyTagsAndMembersAsTheLibraryDoes(bool emptyTags, bool emptyMembers)
    {
        AssertAsLibrary(new Organization { Id = 1, Tags = emptyTags ? [] : null, Members = emptyMembers ? [] : null });
        AssertAsLibrary(new Organization { Id = 1, Tags = ["a", null!, string.Empty], Members = emptyMembers ? [] : [new Member()] });
    }

    [Theory]
    [MemberData(nameof(IntegerEdges))]
    public void WritesIntegersInTheFormatTheLibraryChooses(long value)
    {
        var id = (int)Math.Clamp(value, int.MinValue, int.MaxValue);

        AssertAsLibrary(new Organization { Id = id, Members = [new Member { Id = id, UpdateTime = value }] });
    }

    [Theory]
    [InlineData(0x3ff8000000000000L)] // 1.5
    [InlineData(0x4000000000000000L)] // 2.0: whole numbers stay float 64 too
    [InlineData(0L)] // +0.0
    [InlineData(unchecked((long)0x8000000000000000UL))] // -0.0
    [InlineData(0x7ff0000000000000L)] // +infinity
    [InlineData(unchecked((long)0xfff0000000000000UL))] // -infinity
    [InlineData(0x7ff8000000000123L)] // quiet NaN with a payload
    [InlineData(unchecked((long)0xfff0000000000001UL))] // negative signalling NaN
    [InlineData(1L)] // the smallest subnormal
    public void WritesEveryDoubleAsTheLibraryDoesKeepingItsBits(long bits) =>
        AssertAsLibrary(new Organization { Members = [new Member { Value = BitConverter.Int64BitsToDouble(bits) }] });

    [Theory]
    [InlineData("x", 0)]
    [InlineData("x", 31)] // the last fixstr
    [InlineData("x", 32)] // str 8
    [InlineData("x", 100)]
    [InlineData("x", 255)]
    [InlineData("x", 256)] // str 16
    [InlineData("x", 257)]
    [InlineData("x", 65_535)]
    [InlineData("x", 65_536)] // str 32
    [InlineData("\u00e9", 15)] // é is 2 bytes: 30
    [InlineData("\u00e9", 16)] // 32
    [InlineData("\u20ac", 10)] // € is 3 bytes: 30
    [InlineData("\u20ac", 11)] // 33
    [InlineData("\u00e9", 128)] // 256 bytes from 128 chars
    [InlineData("\U0001F600", 64)] // 😀 is a surrogate pair, 4 bytes: 256 from 128 chars
    [InlineData("\U0001F600", 4096)] // 16384 bytes: crosses the long-string piece size
    [InlineData("\u20ac", 22_000)] // 66000 bytes
    public void ChoosesTheStringHeaderFromTheUtf8ByteCountAsTheLibraryDoes(string unit, int repeat) =>
        AssertAsLibrary(new Organization { Members = [new Member { Name = string.Concat(Enumerable.Repeat(unit, repeat)) }] });

    [Theory]
    [InlineData(1)]
    [InlineData(300)]
    [InlineData(20_000)] // across the long-string pieces
    public void WritesLoneSurrogatesAsTheReplacementCharacterAsTheLibraryDoes(int length)
    {
        var chars = new char[length + 2];
        Array.Fill(chars, 'a');
        for (var i = 0; i < chars.Length; i += 997)
        {
            chars[i] = '\ud800';
        }

        chars[^1] = '\udc00';

        AssertAsLibrary(new Organization { Members = [new Member { Name = new string(chars) }] });
    }

    [Theory]
    [InlineData(15)] // the last fixarray
    [InlineData(16)] // array 16
    [InlineData(65_535)]
    [InlineData(65_536)] // array 32
    public void ChoosesTheArrayHeaderFromTheCountAsTheLibraryDoes(int count) =>
        AssertAsLibrary(new Organization { Tags = Enumerable.Repeat(string.Empty, count).ToArray(), Members = [.. Enumerable.Range(0, count).Select(id => new Member { Id = id })] });

    private static void AssertAsLibrary(Organization organization) => Assert.Equal(
        Convert.ToHexString(ReferenceLibrary.MessagePackCSharp.Serialize(organization)),
        Convert.ToHexString(Encode(MessagePackCodec.Instance, organization)));
}
