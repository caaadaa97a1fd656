using System.Buffers;
using System.Text;
using WebSerialization.Models;
using WebSerialization.Models.Binary;

namespace WebSerialization.Codecs.Tests.Binary;

public class OrganizationBinaryEncoderTests
{
    // The payload of two members (id 0 with the previous name, id 1 with the current one, values and times 0), and
    // the bytes the second member must take: flags, the name's Text, value 00, time delta 00.
    [Theory]
    [InlineData("TestName9", "TestName10", "85 08 0A 00 00")]
    [InlineData("TestName10", "TestName11", "85 09 01 00 00")]
    [InlineData("TestName19", "TestName20", "85 08 14 00 00")]
    [InlineData("TestName", "TestName0", "85 08 00 00 00")]
    [InlineData("Item1234", "Item1205", "85 05 CD 01 00 00")]
    [InlineData("Item1234", "Item1200", "85 05 C8 01 00 00")]
    [InlineData("Zürich1", "Zürich2", "85 07 02 00 00")]
    [InlineData(null, "0", "85 00 00 00 00")]
    [InlineData(null, "01", "87 00 01 30 01 00 00")]
    [InlineData(null, "x007", "87 00 03 78 30 30 07 00 00")]
    [InlineData("x1", "x000", "87 01 02 30 30 00 00 00")]
    [InlineData(null, "10000000000000000000", "87 00 13 31 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 00 00 00")]
    [InlineData("abc", "abc", "83 03 00 00 00")]
    [InlineData("", "", "83 00 00 00 00")]
    [InlineData("é", "ê", "83 00 02 C3 AA 00 00")]
    [InlineData("😀", "😁", "83 00 04 F0 9F 98 81 00 00")]
    [InlineData("東京1", "東京2", "85 06 02 00 00")]
    [InlineData("abc", null, "81 00 00")]
    public void WritesTextsAsTheSpecsWriterChoicesSay(string? previous, string? current, string expectedHex)
    {
        var organization = new Organization { Members = [new Member { Name = previous }, new Member { Id = 1, Name = current }] };

        var payload = BinaryPayload.Encode(organization);

        var expected = Convert.FromHexString(expectedHex.Replace(" ", string.Empty, StringComparison.Ordinal));
        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(payload.AsSpan(payload.Length - expected.Length)));
        OrganizationAssert.Equal(organization, BinaryPayload.Decode(payload));
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

        var payload = BinaryPayload.Encode(organization);

        Assert.Equal(expectedHex.Replace(" ", string.Empty, StringComparison.Ordinal), Convert.ToHexString(payload.AsSpan(8)));
    }

    [Fact]
    public void AllocatesNothingPerMember()
    {
        var organization = OrganizationGenerator.Create(64 * 158);
        var members = organization.Members!.ToArray();
        var output = new ArrayBufferWriter<byte>(1024 * 1024);
        var encoder = BinaryCodec.Instance.CreateEncoder();
        encoder.WriteHeader(output, organization, members.Length);
        encoder.WriteMembers(output, members.AsSpan(0, 64));

        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var index = 64; index < members.Length; index += 64)
        {
            encoder.WriteMembers(output, members.AsSpan(index, 64));
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < 1024, $"Encoding 10,048 members allocated {allocated} bytes.");
    }

    [Fact]
    public void RefusesToWriteMoreMembersThanTheHeaderDeclared()
    {
        var organization = OrganizationGenerator.Create(3);
        var encoder = BinaryCodec.Instance.CreateEncoder();
        var output = new ArrayBufferWriter<byte>();
        encoder.WriteHeader(output, organization, 2);

        Assert.Throws<InvalidOperationException>(() => encoder.WriteMembers(output, organization.Members!.ToArray()));
    }

    [Fact]
    public void RefusesToEndWithFewerMembersThanTheHeaderDeclared()
    {
        var organization = OrganizationGenerator.Create(3);
        var encoder = BinaryCodec.Instance.CreateEncoder();
        var output = new ArrayBufferWriter<byte>();
        encoder.WriteHeader(output, organization, 3);
        encoder.WriteMembers(output, organization.Members!.Take(2).ToArray());

        Assert.Throws<InvalidOperationException>(() => encoder.WriteFooter(output));
    }

    [Fact]
    public void WritesLoneSurrogatesAsReplacementCharacters()
    {
        string[] names = ["a\uD800b", "a\uD800", "a\uD800\uDC00", "a\uD800\uD800\uDC00", "a\uD800\uD800", "\uDC00", "\uDC001", "\uDC002", "x\uD83D7"];
        var organization = new Organization
        {
            Tags = ["a\uD800b"],
            Members = [.. names.Select((name, index) => new Member { Id = index, Name = name })],
        };

        var decoded = BinaryPayload.Decode(BinaryPayload.Encode(organization));

        Assert.Equal("a\uFFFDb", decoded.Tags![0]);
        Assert.Equal(names.Select(name => Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(name))), decoded.Members!.Select(member => member.Name));
    }
}
