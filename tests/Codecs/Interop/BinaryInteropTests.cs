using WebSerialization.Codecs.Tests.Binary;

namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>
/// Our binary codec against src/Api/wwwroot/js/webserialization-binary.mjs, the JavaScript reader and writer the API
/// ships, written from docs/binary-format.md alone, beyond <see cref="JavaScriptInteropTests"/>' round trips: the spec
/// fixes the writer's choices, so both writers must produce the same bytes, and both readers agree on its edges.
/// </summary>
public class BinaryInteropTests
{
    private static readonly BinaryCodec Codec = BinaryCodec.Instance;

    /// <summary>Payloads at the edges of what the spec allows, several of which no writer following its choices produces.</summary>
    private static readonly Dictionary<string, string> AllowedPayloads = new()
    {
        // "prefixLength ... counts bytes, so it may end inside a UTF-8 sequence": "é" (C3 A9), then "ê" as 1 byte of it + AA.
        ["a prefix that ends inside a code point"] = "57 53 42 46 01 00 00 03  83 00 04 C3 A9 00 00  83 01 02 AA 00 00",

        // "number must be below 10^19, that is, have at most 19 digits": 9999999999999999999 is the largest.
        ["a number of 19 digits"] = "57 53 42 46 01 00 00 02  87 FF FF 9F CF C8 E0 C8 E3 8A 01 00 00",

        // "Texts are UTF-8 without a byte order mark": so a U+FEFF that starts a text (EF BB BF) is part of it, not a mark.
        ["a text that starts with U+FEFF"] = "57 53 42 46 01 00 02  05 EF BB BF 41  02  83 00 08 EF BB BF 42 00 00",

        // "-2^63 <= value < 2^63": long.MinValue is exactly -2^63.
        ["the integer value -2^63"] = "57 53 42 46 01 00 00 02  81 FF FF FF FF FF FF FF FF FF 01 00",

        // "its 5th byte may not exceed 0x0F": zigzag(int.MinValue) = 0xFFFFFFFF takes all of it.
        ["a five-byte varint32"] = "57 53 42 46 01 FF FF FF FF 0F 00 00",

        // "A reader accepts any valid choice": 1.0 as float64 bits, where a writer would use the integer form.
        ["an integral double as float64"] = "57 53 42 46 01 00 00 02  01 00 00 00 00 00 00 F0 3F 00",

        // Kind 1 with an empty text and the number 7, where a writer would use kind 3.
        ["a number with an empty text"] = "57 53 42 46 01 00 00 02  83 00 01 07 00 00",

        // "two's complement wrap-around": long.MaxValue, then a delta of 1 to long.MinValue.
        ["an update time that wraps around"] = "57 53 42 46 01 00 00 03  81 00 FE FF FF FF FF FF FF FF FF 01  81 00 02",
    };

    public static TheoryData<string> Names =>
        [.. JavaScriptInteropTests.Organizations, .. JavaScriptInteropTests.BinaryOnly];

    public static TheoryData<string> Allowed => [.. AllowedPayloads.Keys];

    /// <summary>The spec's rejected payloads that do not depend on a reader's limits (the JavaScript reader has none).</summary>
    public static TheoryData<string> Forbidden =>
        [.. BinarySpecDocument.RejectedPayloads.Values.Where(payload => payload.Error != WireFormatError.LimitExceeded).Select(payload => payload.Name)];

    [Theory]
    [MemberData(nameof(Names))]
    public void WritesTheSameBytesAsBinaryJs(string name)
    {
        // The spec's writer choices leave nothing open for well-formed strings, which all of these are.
        var organization = OrganizationGen.Named(name);

        Assert.Equal(Encode(Codec, organization), InteropScripts.Encode("binary", organization));
    }

    [Theory]
    [MemberData(nameof(BinarySpecDocument.VectorNames), MemberType = typeof(BinarySpecDocument))]
    public void BinaryJsReadsAndWritesTheSpecsTestVectors(string vector)
    {
        var bytes = BinarySpecDocument.VectorBytes(vector);
        var organization = BinarySpecDocument.Vectors[vector]();

        AssertSameToTheBit(organization, InteropScripts.Decode("binary", bytes));
        Assert.Equal(bytes, InteropScripts.Encode("binary", organization));
    }

    [Fact]
    public void BinaryJsReadsLoneSurrogatesAsTheReplacementCharacter()
    {
        // "A writer encodes a .NET string whose UTF-16 is not well formed (a lone surrogate) with U+FFFD in its place."
        // Canonical JSON cannot take a lone surrogate to JavaScript, so only our writer is checked here, on texts whose
        // prefixes and stems end next to one. Which prefix it takes is open (see tests/Interop/README.md).
        string[] written = ["a\uD800b", "a\uD800c", "\uD83D\uDE00", "\uD83D", "x\uDC00", "x\uDC005", "x\uDC0017"];
        string[] read = ["a\uFFFDb", "a\uFFFDc", "\uD83D\uDE00", "\uFFFD", "x\uFFFD", "x\uFFFD5", "x\uFFFD17"];
        static Organization WithNames(string[] names) => new()
        {
            Tags = [names[0]],
            Members = [.. names.Select((name, index) => new Member { Id = index, Name = name, Address = name })],
        };

        var decoded = InteropScripts.Decode("binary", Encode(Codec, WithNames(written)));

        AssertSameToTheBit(WithNames(read), decoded);
    }

    [Theory]
    [MemberData(nameof(Allowed))]
    public void BothReadersAcceptWhatTheSpecAllows(string description)
    {
        var payload = Hex(AllowedPayloads[description]);

        var ours = Decode(Codec, payload);

        AssertSameToTheBit(ours, InteropScripts.Decode("binary", payload));
    }

    [Theory]
    [MemberData(nameof(Forbidden))]
    public void BothReadersRejectWhatTheSpecForbidsAtTheSameOffset(string name)
    {
        var expected = BinarySpecDocument.RejectedPayloads[name];

        var ours = DecodeFailure(Codec, expected.Bytes);
        var theirs = Assert.Throws<InvalidOperationException>(() => InteropScripts.Decode("binary", expected.Bytes));

        Assert.Equal((expected.Error, expected.Offset), (ours.Error, ours.Offset));
        Assert.True(theirs.Message.Contains($"{expected.Error} at offset {expected.Offset}:", StringComparison.Ordinal), $"{name}: {theirs.Message}");
    }

    // OrganizationAssert lets any NaN equal any other, for formats that cannot carry a payload; this one must keep it.
    internal static void AssertSameToTheBit(Organization expected, Organization actual)
    {
        OrganizationAssert.Equal(expected, actual);
        Assert.Equal(ValueBits(expected), ValueBits(actual));
    }

    private static long[] ValueBits(Organization organization) =>
        [.. (organization.Members ?? []).Select(member => BitConverter.DoubleToInt64Bits(member.Value))];
}
