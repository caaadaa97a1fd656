using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using WebSerialization.Models;
using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Streaming;
using static WebSerialization.Codecs.Tests.MessagePack.MessagePackPayloads;

namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>
/// Exact bytes, computed by hand from the MessagePack specification, for what MessagePack-CSharp writes for the
/// array-keyed model: the smallest int, str and array format, float 64 for every double.
/// </summary>
public class MessagePackOrganizationEncoderTests
{
    // [Id, Name, Description, Address, Value, UpdateTime] around one field under test.
    private const string OrganizationWithOneMember = "93 00 c0 91 96";
    private const string Nils = "c0 c0 c0";
    private const string ZeroFloat64 = "cb 00 00 00 00 00 00 00 00";

    [Fact]
    public void WritesAnOrganizationWithoutTagsOrMembersAsIdAndTwoNils()
    {
        Assert.Equal(Hex("93 01 c0 c0"), Encode(new Organization { Id = 1 }));
    }

    [Fact]
    public void WritesEmptyTagsAndMembersAsEmptyArraysNotNil()
    {
        Assert.Equal(Hex("93 01 90 90"), Encode(new Organization { Id = 1, Tags = [], Members = [] }));
    }

    [Fact]
    public void WritesNullTagsAsNilAndEmptyTagsAsEmptyFixstr()
    {
        var organization = new Organization { Id = 1, Tags = ["a", null!, string.Empty] };

        Assert.Equal(Hex("93 01 93 a1 61 c0 a0 c0"), Encode(organization));
    }

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
        Assert.Equal(expected, Encode(organization));
    }

    [Theory]
    [InlineData(0, "00")]
    [InlineData(1, "01")]
    [InlineData(127, "7f")] // positive fixint stores 7-bit positive integer
    [InlineData(128, "cc 80")] // uint 8
    [InlineData(255, "cc ff")]
    [InlineData(256, "cd 01 00")] // uint 16
    [InlineData(65535, "cd ff ff")]
    [InlineData(65536, "ce 00 01 00 00")] // uint 32
    [InlineData(int.MaxValue, "ce 7f ff ff ff")]
    [InlineData(-1, "ff")] // negative fixint stores 5-bit negative integer
    [InlineData(-32, "e0")]
    [InlineData(-33, "d0 df")] // int 8
    [InlineData(-128, "d0 80")]
    [InlineData(-129, "d1 ff 7f")] // int 16
    [InlineData(-32768, "d1 80 00")]
    [InlineData(-32769, "d2 ff ff 7f ff")] // int 32
    [InlineData(int.MinValue, "d2 80 00 00 00")]
    public void WritesInt32InTheSmallestFormat(int value, string hex)
    {
        var organization = new Organization { Id = value, Members = [new Member { Id = value }] };

        var expected = Hex($"93 {hex} c0 91 96 {hex} {Nils} {ZeroFloat64} 00");
        Assert.Equal(expected, Encode(organization));
    }

    [Theory]
    [InlineData(127L, "7f")]
    [InlineData(128L, "cc 80")]
    [InlineData(65536L, "ce 00 01 00 00")]
    [InlineData(4294967295L, "ce ff ff ff ff")]
    [InlineData(4294967296L, "cf 00 00 00 01 00 00 00 00")] // uint 64
    [InlineData(1702247304000L, "cf 00 00 01 8c 55 d8 8b 40")]
    [InlineData(long.MaxValue, "cf 7f ff ff ff ff ff ff ff")]
    [InlineData(-33L, "d0 df")]
    [InlineData(-2147483648L, "d2 80 00 00 00")]
    [InlineData(-2147483649L, "d3 ff ff ff ff 7f ff ff ff")] // int 64
    [InlineData(long.MinValue, "d3 80 00 00 00 00 00 00 00")]
    public void WritesInt64InTheSmallestFormat(long value, string hex)
    {
        var organization = new Organization { Members = [new Member { UpdateTime = value }] };

        var expected = Hex($"{OrganizationWithOneMember} 00 {Nils} {ZeroFloat64} {hex}");
        Assert.Equal(expected, Encode(organization));
    }

    [Theory]
    [InlineData(0x3ff8000000000000L, "3f f8 00 00 00 00 00 00")] // 1.5
    [InlineData(unchecked((long)0x8000000000000000UL), "80 00 00 00 00 00 00 00")] // -0.0
    [InlineData(0x7ff0000000000000L, "7f f0 00 00 00 00 00 00")] // +infinity
    [InlineData(unchecked((long)0xfff0000000000000UL), "ff f0 00 00 00 00 00 00")] // -infinity
    [InlineData(0x7ff8000000000123L, "7f f8 00 00 00 00 01 23")] // quiet NaN with a payload
    [InlineData(unchecked((long)0xfff0000000000001UL), "ff f0 00 00 00 00 00 01")] // negative signalling NaN
    [InlineData(1L, "00 00 00 00 00 00 00 01")] // the smallest subnormal
    [InlineData(0x4000000000000000L, "40 00 00 00 00 00 00 00")] // 2.0: whole numbers stay float 64 too
    public void WritesEveryDoubleAsFloat64FromItsBits(long bits, string hex)
    {
        var organization = new Organization { Members = [new Member { Value = BitConverter.Int64BitsToDouble(bits) }] };

        var expected = Hex($"{OrganizationWithOneMember} 00 {Nils} cb {hex} 00");
        Assert.Equal(expected, Encode(organization));
    }

    [Theory]
    [InlineData("x", 0, "a0")] // fixstr stores a byte array whose length is upto 31 bytes
    [InlineData("x", 31, "bf")]
    [InlineData("x", 32, "d9 20")] // str 8 stores a byte array whose length is upto (2^8)-1 bytes
    [InlineData("x", 100, "d9 64")]
    [InlineData("x", 255, "d9 ff")]
    [InlineData("x", 256, "da 01 00")] // str 16 stores a byte array whose length is upto (2^16)-1 bytes
    [InlineData("x", 257, "da 01 01")]
    [InlineData("x", 65535, "da ff ff")]
    [InlineData("x", 65536, "db 00 01 00 00")] // str 32 stores a byte array whose length is upto (2^32)-1 bytes
    [InlineData("\u00e9", 15, "be")] // é is 2 bytes: 30
    [InlineData("\u00e9", 16, "d9 20")] // 32
    [InlineData("\u20ac", 10, "be")] // € is 3 bytes: 30
    [InlineData("\u20ac", 11, "d9 21")] // 33
    [InlineData("\u00e9", 128, "da 01 00")] // 256 bytes from 128 chars
    [InlineData("\U0001F600", 64, "da 01 00")] // 😀 is a surrogate pair, 4 bytes: 256 from 128 chars
    [InlineData("\U0001F600", 4096, "da 40 00")] // 16384 bytes: crosses the long-string piece size
    [InlineData("\u20ac", 22000, "db 00 01 01 d0")] // 66000 bytes
    public void ChoosesTheStringHeaderFromTheUtf8ByteCount(string unit, int repeat, string header)
    {
        var name = string.Concat(Enumerable.Repeat(unit, repeat));
        var organization = new Organization { Members = [new Member { Name = name }] };

        var expected = Hex($"{OrganizationWithOneMember} 00 {header}")
            .Concat(Encoding.UTF8.GetBytes(name))
            .Concat(Hex($"c0 c0 {ZeroFloat64} 00"));
        Assert.Equal(expected, Encode(organization));
    }

    [Theory]
    [InlineData(1, "a7")] // 3 + 1 + 3 bytes
    [InlineData(300, "da 01 32")] // 3 + 300 + 3
    [InlineData(20_000, "da 4e 4e")] // 22 lone surrogates x 3 + 19980, across the long-string pieces
    public void WritesLoneSurrogatesAsTheReplacementCharacterAsUtf8EncodingDoes(int length, string header)
    {
        // A string that is not valid UTF-16 cannot become valid UTF-8: like MessagePack-CSharp's UTF8Encoding,
        // each lone surrogate becomes U+FFFD (ef bf bd).
        var chars = new char[length + 2];
        Array.Fill(chars, 'a');
        for (var i = 0; i < chars.Length; i += 997)
        {
            chars[i] = '\ud800';
        }

        chars[^1] = '\udc00';
        var name = new string(chars);
        var organization = new Organization { Members = [new Member { Name = name }] };

        var expected = Hex($"{OrganizationWithOneMember} 00 {header}")
            .Concat(Encoding.UTF8.GetBytes(name))
            .Concat(Hex($"c0 c0 {ZeroFloat64} 00"));
        Assert.Equal(expected, Encode(organization));
        Assert.Equal([0xef, 0xbf, 0xbd], Encoding.UTF8.GetBytes("\ud800"));
    }

    [Theory]
    [InlineData(15, "9f")] // fixarray stores an array whose length is upto 15 elements
    [InlineData(16, "dc 00 10")] // array 16 stores an array whose length is upto (2^16)-1 elements
    [InlineData(65535, "dc ff ff")]
    [InlineData(65536, "dd 00 01 00 00")] // array 32 stores an array whose length is upto (2^32)-1 elements
    public void ChoosesTheArrayHeaderFromTheCount(int count, string header)
    {
        var tags = Enumerable.Repeat(string.Empty, count).ToArray();
        var output = new ArrayBufferWriter<byte>();

        MessagePackCodec.Instance.CreateEncoder().WriteHeader(output, new Organization { Tags = tags, Members = [] }, count);

        var expected = Hex($"93 00 {header}").Concat(Enumerable.Repeat((byte)0xa0, count)).Concat(Hex(header));
        Assert.Equal(expected, output.WrittenSpan.ToArray());
    }

    [Fact]
    public void RefusesMoreMembersThanTheHeaderAnnounced()
    {
        var encoder = MessagePackCodec.Instance.CreateEncoder();
        var output = new ArrayBufferWriter<byte>();
        var organization = OrganizationGenerator.Create(3);
        encoder.WriteHeader(output, organization, 2);

        Assert.Throws<InvalidOperationException>(() => encoder.WriteMembers(output, organization.Members!.ToArray()));
    }

    [Fact]
    public void RefusesToEndBeforeEveryAnnouncedMemberIsWritten()
    {
        var encoder = MessagePackCodec.Instance.CreateEncoder();
        var output = new ArrayBufferWriter<byte>();
        var organization = OrganizationGenerator.Create(3);
        encoder.WriteHeader(output, organization, 3);
        encoder.WriteMembers(output, organization.Members!.Take(2).ToArray());

        Assert.Throws<InvalidOperationException>(() => encoder.WriteFooter(output));
    }

    [Fact]
    public async Task WritesTheSameBytesThroughTheStreamWriterAsInOnePiece()
    {
        var organization = OrganizationGenerator.Create(2000);
        var pipe = new Pipe();
        var reading = ReadToEndAsync(pipe.Reader);

        var total = await OrganizationStreamWriter.WriteAsync(pipe.Writer, MessagePackCodec.Instance.CreateEncoder(), organization, 2000, CancellationToken.None, chunkSize: 1024);
        await pipe.Writer.CompleteAsync();
        var streamed = await reading;

        Assert.Equal(total, streamed.Length);
        Assert.Equal(Encode(organization, batchSize: 2000), streamed);
    }

    private static async Task<byte[]> ReadToEndAsync(PipeReader reader)
    {
        var bytes = new List<byte>();
        while (true)
        {
            var result = await reader.ReadAsync();
            bytes.AddRange(result.Buffer.ToArray());
            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                await reader.CompleteAsync();
                return [.. bytes];
            }
        }
    }

    [Fact]
    public void AllocatesNothingPerMember()
    {
        var allocated = EncodeAllocations.AfterTheFirstBatch(MessagePackCodec.Instance, OrganizationGenerator.Create(64 * 158));

        Assert.True(allocated < 1024, $"Encoding 10,048 members allocated {allocated} bytes.");
    }

}
