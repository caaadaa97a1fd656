namespace WebSerialization.Codecs.Tests.Binary;

public class BinaryOrganizationEncoderTests
{
    private static readonly BinaryCodec Codec = BinaryCodec.Instance;

    // The payload of two members (id 0 with the previous name, id 1 with the current one, values and times 0), and
    // the bytes the second member must take: flags, the name's Text, value 00, time delta 00.
    [Theory]
    [InlineData("TestName9", "TestName10", "87 0A 00 00")] // kind 3: the stem "TestName" and 10
    [InlineData("TestName10", "TestName11", "87 0B 00 00")] // kind 3, never prefix 9 and number 1
    [InlineData("TestName1234", "TestName1235", "87 D3 09 00 00")]
    [InlineData("TestName123455", "TestName123456", "87 C0 C4 07 00 00")] // kind 3 even where prefix 13 and number 6 would be shorter
    [InlineData("Item1234x", "Item1235", "85 07 05 00 00")] // the stems differ: kind 2, prefix 7 and number 5
    [InlineData("TestName", "TestName0", "87 00 00 00")]
    [InlineData("Item1234", "Item1205", "87 B5 09 00 00")] // never "Item12" + "05"
    [InlineData("Item123", "Item12", "87 0C 00 00")] // a prefix of the previous value: kind 3 still
    [InlineData("Item1234", "Item0123", "83 04 03 30 7B 00 00")] // the previous stem and digits, but a leading 0: text "0" and 123
    [InlineData("TestName1234", "TestNbme1235", "83 05 07 62 6D 65 D3 09 00 00")] // a stem as long as the previous one, not equal
    [InlineData("TestName12345678", "TestName1234567\u0130", "83 0F 04 C4 B0 00 00")] // where the previous stem's digits were, U+0130
    [InlineData("x1234567890123456789", "x123456789012345678", "87 CE E6 C3 B1 BA E9 A6 DB 01 00 00")] // kind 3 however long the number
    [InlineData("Zürich1", "Zürich2", "87 02 00 00")]
    [InlineData("東京1", "東京2", "87 02 00 00")]
    [InlineData(null, "0", "87 00 00 00")] // a null previous value has an empty stem
    [InlineData(null, "01", "83 00 03 30 01 00 00")] // kind 1: text "0" and number 1
    [InlineData(null, "x007", "83 00 07 78 30 30 07 00 00")] // the stems differ: text "x00" and number 7
    [InlineData("x1", "x000", "83 01 05 30 30 00 00 00")] // a run of zeros keeps its last 0 as the number
    [InlineData(null, "10000000000000000000", "83 00 27 31 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 00 00 00")] // 20 digits
    [InlineData("Order-7", "Invoice-8", "83 00 11 49 6E 76 6F 69 63 65 2D 08 00 00")] // another stem: text and number
    [InlineData("abc", "abc", "83 03 00 00 00")]
    [InlineData("", "", "83 00 00 00 00")]
    [InlineData("é", "ê", "83 00 04 C3 AA 00 00")] // never half a code point
    [InlineData("😀", "😁", "83 00 08 F0 9F 98 81 00 00")] // never half a surrogate pair
    [InlineData("abc", null, "81 00 00")]

    // Runs of digits at the lengths where the encoder's 8- and 16-char vector tests end and its loop takes over.
    [InlineData(null, "12345678", "87 CE C2 F1 05 00 00")] // 8 chars, all digits
    [InlineData(null, "abcdefg1234567", "83 00 0F 61 62 63 64 65 66 67 87 AD 4B 00 00")]
    [InlineData(null, "abcdefg12345678", "83 00 0F 61 62 63 64 65 66 67 CE C2 F1 05 00 00")] // 8 digits in 15 chars
    [InlineData(null, "abcdefgh12345678", "83 00 11 61 62 63 64 65 66 67 68 CE C2 F1 05 00 00")]
    [InlineData(null, "1234567890123456", "87 C0 F5 AA E4 D3 DA 98 02 00 00")] // 16 chars, all digits
    [InlineData("x", "x12345678901234567", "87 87 97 AD EB C5 8A F7 15 00 00")] // 17 digits
    [InlineData("Test12345678901234567", "Test12345678901234568", "87 88 97 AD EB C5 8A F7 15 00 00")]
    [InlineData("TestDescription1234567890", "TestDescription1234599999", "87 BF 80 DA CC 04 00 00")]
    [InlineData("TestDescription1234567890", "TestDescription1234560000", "87 80 C8 D7 CC 04 00 00")]
    [InlineData("Stra\u00dfe 123455", "Stra\u00dfe 12345a", "83 0D 02 61 00 00")] // prefix of 12 chars, 13 bytes
    [InlineData("Z\u00fcrich-Stra\u00dfe 123455", "Z\u00fcrich-Stra\u00dfe 12345a", "83 15 02 61 00 00")] // 19 chars, 21 bytes
    [InlineData("abcdefghijklmnopqrstuvwxyz\u00e9123455", "abcdefghijklmnopqrstuvwxyz\u00e912345a", "83 21 02 61 00 00")] // 32 chars, 33 bytes
    [InlineData(null, "ab1cd234567890123", "83 00 0B 61 62 31 63 64 CB E9 D7 EA E9 06 00 00")] // a digit before the run, in the last 16 chars
    [InlineData("a1b2c3d4e5f6g7h8i9", "a1b2c3d4e5f6g7h8j9", "83 10 03 6A 09 00 00")]
    [InlineData(null, "Test\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u0130\u01305", "83 00 39 54 65 73 74 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 C4 B0 05 00 00")] // U+0130 is no 0x30
    [InlineData(null, "Test\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u06627", "83 00 39 54 65 73 74 D9 A1 D9 A2 D9 A3 D9 A4 D9 A5 D9 A6 D9 A7 D9 A8 D9 A9 D9 A0 D9 A1 D9 A2 07 00 00")] // nor are other digits
    public void WritesTextsAsTheSpecsWriterChoicesSay(string? previous, string? current, string expectedHex)
    {
        var organization = new Organization { Members = [new Member { Name = previous }, new Member { Id = 1, Name = current }] };

        var payload = Encode(Codec, organization);

        var expected = Hex(expectedHex);
        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(payload.AsSpan(payload.Length - expected.Length)));
        Assert.Equal(Convert.ToHexString(payload), Convert.ToHexString(EncodeFromViews(Codec, organization)));
        OrganizationAssert.Equal(organization, Decode(Codec, payload));
    }

    // One member with id 0: flags, id delta 00, the value, time delta 00.
    [Theory]
    [InlineData(0x4008000000000000, "80 00 06 00")] // 3.0
    [InlineData(unchecked((long)0xBFF0000000000000), "80 00 01 00")] // -1.0
    [InlineData(0, "80 00 00 00")] // +0.0
    [InlineData(unchecked((long)0x8000000000000000), "00 00 00 00 00 00 00 00 00 80 00")] // -0.0 keeps its sign
    [InlineData(0x3FF8000000000000, "00 00 00 00 00 00 00 00 F8 3F 00")] // 1.5
    [InlineData(unchecked((long)0xC3E0000000000000), "80 00 FF FF FF FF FF FF FF FF FF 01 00")] // -2^63
    [InlineData(0x43E0000000000000, "00 00 00 00 00 00 00 00 E0 43 00")] // 2^63 is past int64
    [InlineData(0x7FF8000000000000, "00 00 00 00 00 00 00 00 F8 7F 00")] // NaN
    [InlineData(0x7FF0000000000000, "00 00 00 00 00 00 00 00 F0 7F 00")] // +infinity
    public void WritesValuesInTheirShortestExactForm(long bits, string expectedHex)
    {
        var organization = new Organization { Members = [new Member { Value = BitConverter.Int64BitsToDouble(bits) }] };

        var payload = Encode(Codec, organization);

        Assert.Equal(Convert.ToHexString(Hex(expectedHex)), Convert.ToHexString(payload.AsSpan(8)));
    }
}
