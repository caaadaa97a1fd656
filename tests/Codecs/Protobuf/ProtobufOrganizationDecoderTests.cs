using System.Diagnostics;
using System.Text;
using Google.Protobuf;
using static Google.Protobuf.WireFormat.WireType;
using WireType = Google.Protobuf.WireFormat.WireType;

namespace WebSerialization.Codecs.Tests.Protobuf;

public class ProtobufOrganizationDecoderTests
{
    private static readonly ProtobufCodec Codec = ProtobufCodec.Instance;

    [Fact]
    public void SkipsAGroupTrickledInAByteAtATimeInLinearTime()
    {
        // A group's end is found only by walking its fields: walked from its start on every call, it is quadratic.
        byte[] payload = [.. Tag(9, StartGroup), .. Enumerable.Repeat(Field(1, Varint, [1]), 50_000).SelectMany(bytes => bytes), .. Tag(9, EndGroup)];
        var clock = Stopwatch.StartNew();

        Decode(Codec, payload, chunkSize: 1);

        Assert.InRange(clock.Elapsed, TimeSpan.Zero, TimeSpan.FromSeconds(3));
    }

    [Theory]
    [InlineData(6, false)]
    [InlineData(7, true)]
    [InlineData(100, true)]
    public void RefusesGroupsInsideAMemberNestedDeeperThanMaxDepth(int groups, bool refused)
    {
        // The organization and the member are two levels, so with MaxDepth 8 a member may hold 6 nested groups.
        var payload = Field(3, LengthDelimited, [.. NestedGroups(groups), .. Field(1, Varint, [4])]);

        if (refused)
        {
            Assert.Equal(WireFormatError.Malformed, DecodeFailure(Codec, payload).Error);
        }
        else
        {
            Assert.Equal(4, Decode(Codec, payload).Members![0].Id);
        }
    }

    [Fact]
    public void SkipsUnknownFieldsOfEveryWireType()
    {
        byte[] unknown =
        [
            .. Field(9, Varint, VarintBytes(ulong.MaxValue)),
            .. Field(10, Fixed64, new byte[8]),
            .. Field(11, Fixed32, new byte[4]),
            .. Field(12, LengthDelimited, [0xFF, 0xFE]),
            .. Tag(13, StartGroup), .. Field(1, Varint, [1]), .. Tag(14, StartGroup), .. Tag(14, EndGroup), .. Tag(13, EndGroup),
        ];
        byte[] payload =
        [
            .. unknown,
            .. Field(1, Varint, [7]),
            .. Field(3, LengthDelimited, [.. unknown, .. Field(1, Varint, [3]), .. unknown, .. Field(2, LengthDelimited, "n"u8.ToArray())]),
            .. unknown,
            .. Field(2, LengthDelimited, "t"u8.ToArray()),
        ];

        var decoded = Decode(Codec, payload, chunkSize: 1);

        OrganizationAssert.Equal(new Organization { Id = 7, Tags = ["t"], Members = [new Member { Id = 3, Name = "n" }] }, decoded);
    }

    public static TheoryData<string, byte[]> MalformedPayloads => new()
    {
        // A known field with the wrong wire type.
        { "organization id as bytes", Field(1, LengthDelimited, [1]) },
        { "organization id as fixed64", Field(1, Fixed64, new byte[8]) },
        { "tag as varint", Field(2, Varint, [1]) },
        { "member as fixed32", Field(3, Fixed32, new byte[4]) },
        { "member as group", [.. Tag(3, StartGroup), .. Tag(3, EndGroup)] },
        { "member id as fixed64", Field(3, LengthDelimited, Field(1, Fixed64, new byte[8])) },
        { "member name as varint", Field(3, LengthDelimited, Field(2, Varint, [1])) },
        { "member value as varint", Field(3, LengthDelimited, Field(5, Varint, [1])) },
        { "member value as fixed32", Field(3, LengthDelimited, Field(5, Fixed32, new byte[4])) },
        { "member update time as bytes", Field(3, LengthDelimited, Field(6, LengthDelimited, [1])) },

        { "an 11-byte varint", [.. Tag(1, Varint), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00] },
        { "a varint past 64 bits", [.. Tag(1, Varint), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02] },
        { "a tag past 32 bits", [0x80, 0x80, 0x80, 0x80, 0x10] },
        { "field number 0", [0x00, 0x01] },
        { "field number 0 after the id", [.. Field(1, Varint, [1]), 0x00, 0x01] },
        { "wire type 6", [.. Tag(9, (WireType)6), 0x00] },
        { "wire type 7", [.. Tag(9, (WireType)7), 0x00] },
        { "an end group without a start", Tag(9, EndGroup) },
        { "a mismatched end group", [.. Tag(9, StartGroup), .. Tag(10, EndGroup)] },
        { "a member string overrunning the member", [.. Tag(3, LengthDelimited), 0x03, .. Tag(2, LengthDelimited), 0x05, (byte)'a'] },
        { "a member varint cut by the member's end", [.. Tag(3, LengthDelimited), 0x02, .. Tag(1, Varint), 0x80] },
        { "a member tag cut by the member's end", [.. Tag(3, LengthDelimited), 0x01, 0x80] },
        { "field number 0 in a member", Field(3, LengthDelimited, [0x00, 0x01]) },
        { "an end group without a start in a member", Field(3, LengthDelimited, Tag(9, EndGroup)) },
        { "an unknown group left open in a member", Field(3, LengthDelimited, Tag(9, StartGroup)) },
        { "wire type 6 in a member", Field(3, LengthDelimited, [.. Tag(9, (WireType)6), 0x00]) },
        { "wire type 7 in a member", Field(3, LengthDelimited, [.. Tag(9, (WireType)7), 0x00]) },
        { "a tag past 32 bits in a member", Field(3, LengthDelimited, [0x80, 0x80, 0x80, 0x80, 0x10]) },
        { "a member varint past 64 bits", Field(3, LengthDelimited, [.. Tag(1, Varint), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02]) },
        { "a member string overrunning the member into the next one", [.. Tag(3, LengthDelimited), 0x02, .. Tag(2, LengthDelimited), 0x02, .. Field(3, LengthDelimited, [])] },
    };

    [Theory]
    [MemberData(nameof(MalformedPayloads))]
    public void RejectsMalformedProtobuf(string problem, byte[] payload)
    {
        var error = DecodeFailure(Codec, payload);
        Assert.True(error.Error == WireFormatError.Malformed, $"{problem}: {error.Error} {error.Message}");
    }

    public static TheoryData<string> FieldsCutShort =>
        ["1A 05 08 01", "1A", "1A 80", "12 03 61", "08 80", "49 00 00", "4B 08 01", "08 01 1A 05 08 01"];

    [Theory]
    [MemberData(nameof(FieldsCutShort))]
    public void RejectsAFieldCutShortByTheEndAsTruncated(string hex) =>
        Assert.Equal(WireFormatError.Truncated, DecodeFailure(Codec, Hex(hex)).Error);

    [Fact]
    public void TakesTheLastValueOfARepeatedScalarField()
    {
        byte[] payload =
        [
            .. Field(1, Varint, [1]),
            .. Field(3, LengthDelimited, [.. Field(2, LengthDelimited, "a"u8.ToArray()), .. Field(2, LengthDelimited, "b"u8.ToArray())]),
            .. Field(1, Varint, [2]),
        ];

        var decoded = Decode(Codec, payload);

        Assert.Equal(2, decoded.Id);
        Assert.Equal("b", decoded.Members![0].Name);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(300)]
    public void ReadsAMemberTheSameWhateverTheOrderOfItsFieldsAndTheLengthOfItsTexts(int nameLength)
    {
        // Members in the schema's order take the decoder's straight-through path unless a text is 128 bytes or more;
        // the reversed ones, and the last field of the payload, take the field-by-field path. All must agree.
        byte[][] fields =
        [
            Field(1, Varint, VarintBytes(1_000_000)),
            Field(2, LengthDelimited, Encoding.UTF8.GetBytes(new string('é', nameLength / 2) + new string('n', nameLength % 2))),
            Field(3, LengthDelimited, "d"u8.ToArray()),
            Field(4, LengthDelimited, []),
            Field(5, Fixed64, BitConverter.GetBytes(-0.5)),
            Field(6, Varint, VarintBytes(1_702_247_304_000)),
        ];
        var inOrder = Field(3, LengthDelimited, [.. fields.SelectMany(field => field)]);
        var reversed = Field(3, LengthDelimited, [.. fields.Reverse().SelectMany(field => field)]);

        var members = Decode(Codec, [.. inOrder, .. inOrder, .. reversed, .. inOrder, .. Field(1, Varint, [9])]).Members!;

        Assert.Equal(4, members.Count);
        Assert.All(members, member =>
        {
            Assert.Equal(
                (1_000_000, nameLength, "d", "", -0.5, 1_702_247_304_000),
                (member.Id, Encoding.UTF8.GetByteCount(member.Name!), member.Description, member.Address, member.Value, member.UpdateTime));
        });
    }

    [Fact]
    public void AcceptsVarintsPaddedWithZeroContinuationBytes()
    {
        byte[] payload = [.. Tag(1, Varint), 0x87, 0x80, 0x00, .. Tag(3, LengthDelimited), 0x82, 0x00, .. Tag(1, Varint), 0x05];

        var decoded = Decode(Codec, payload);

        Assert.Equal(7, decoded.Id);
        Assert.Equal(5, decoded.Members![0].Id);
    }

    [Fact]
    public void KeepsDecodingPastTwoGigabytes()
    {
        // Offsets and the bytes consumed go past what an int holds. Members of 250 KB unknown fields keep the decoded
        // objects small while 2.3 GB go through the decoder.
        var limits = new DecodeLimits { MaxMembers = int.MaxValue };
        var member = Field(3, LengthDelimited, Field(9, LengthDelimited, new byte[250 * 1024]));
        var decoder = Codec.CreateDecoder(limits);
        const int Count = 9200;

        for (var index = 0; index < Count; index++)
        {
            var consumed = decoder.Decode(new ReadOnlySequence<byte>(member), isFinalBlock: false);
            Assert.Equal(member.Length, new ReadOnlySequence<byte>(member).Slice(0, consumed).Length);
        }

        decoder.Decode(ReadOnlySequence<byte>.Empty, isFinalBlock: true);
        Assert.Equal(Count, decoder.GetResult().Members!.Count);
    }

    /// <summary>The end offset of every top-level field (and 0, the empty message), with the number of members up to it.</summary>
    internal static Dictionary<int, int> TopLevelFieldEnds(byte[] payload)
    {
        var ends = new Dictionary<int, int> { [0] = 0 };
        var input = new CodedInputStream(payload);
        var members = 0;
        while (input.ReadTag() is var tag && tag != 0)
        {
            members += Google.Protobuf.WireFormat.GetTagFieldNumber(tag) == 3 ? 1 : 0;
            input.SkipLastField();
            ends[(int)input.Position] = members;
        }

        return ends;
    }

    /// <summary>An unknown field 9 of <paramref name="depth"/> groups, each inside the one before.</summary>
    internal static byte[] NestedGroups(int depth) => [.. Enumerable.Repeat(Tag(9, StartGroup), depth).Concat(Enumerable.Repeat(Tag(9, EndGroup), depth)).SelectMany(bytes => bytes)];

    private static byte[] Tag(int field, WireType wireType) => VarintBytes((ulong)((field << 3) | (int)wireType));

    private static byte[] Field(int field, WireType wireType, byte[] value) => wireType == LengthDelimited
        ? [.. Tag(field, wireType), .. VarintBytes((ulong)value.Length), .. value]
        : [.. Tag(field, wireType), .. value];

    private static byte[] VarintBytes(ulong value)
    {
        var bytes = new byte[CodedOutputStream.ComputeUInt64Size(value)];
        new CodedOutputStream(bytes).WriteUInt64(value);
        return bytes;
    }
}
