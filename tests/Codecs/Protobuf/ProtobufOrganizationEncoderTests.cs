using Google.Protobuf;
using WebSerialization.Codecs.Tests.Libraries;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.Codecs.Tests.Protobuf;

/// <summary>
/// The encoder writes protobuf by hand; Google.Protobuf's <see cref="CodedOutputStream"/> is the reference for every
/// byte: tags, minimal varints (10 bytes for negative int32), fixed64 bits, UTF-8 with U+FFFD for lone surrogates.
/// </summary>
public class ProtobufOrganizationEncoderTests
{
    public static TheoryData<string> Organizations => [.. ByteExactOrganizations];

    [Theory]
    [MemberData(nameof(Organizations))]
    public void WritesTheBytesOfGoogleProtobufsCodedOutputStream(string name)
    {
        var organization = OrganizationGen.Named(name);

        Assert.Equal(Convert.ToHexString(Reference(organization)), Convert.ToHexString(Encode(ProtobufCodec.Instance, organization)));
    }

    // The attributes on the model are the seed's contract: protobuf-net writes the seed organization as we do.
    [Fact]
    public void WritesProtobufNetsBytesForTheSeedOrganization()
    {
        var organization = OrganizationGenerator.Create(1_000);

        Assert.Equal(ReferenceLibrary.ProtobufNet.Serialize(organization), Encode(ProtobufCodec.Instance, organization));
    }

    [Fact]
    public void WritesANegativeZeroValueThatProtobufNetLeavesOut()
    {
        // proto3 leaves a field out when it holds its default, and -0.0 is not the default (docs/libraries.md).
        var organization = new Organization { Members = [new Member { Id = 1, Value = -0.0 }] };

        // Members element (field 3, 2 bytes): Id (field 1) = 1, and nothing for Value.
        Assert.Equal(Hex("1A 02 08 01"), ReferenceLibrary.ProtobufNet.Serialize(organization));

        // Ours, 9 bytes more: Value (field 5, fixed64) with only the sign bit set.
        Assert.Equal(Hex("1A 0B 08 01 29 00 00 00 00 00 00 00 80"), Encode(ProtobufCodec.Instance, organization));
    }

    // The schema's fields with CodedOutputStream's own writers: proto3 leaves out zero numbers and null strings.
    private static byte[] Reference(Organization organization)
    {
        var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        if (organization.Id != 0)
        {
            output.WriteTag(1, ProtoWireFormat.WireType.Varint);
            output.WriteInt32(organization.Id);
        }

        foreach (var tag in organization.Tags ?? [])
        {
            output.WriteTag(2, ProtoWireFormat.WireType.LengthDelimited);
            output.WriteString(tag ?? string.Empty);
        }

        foreach (var member in organization.Members ?? [])
        {
            var body = new MemoryStream();
            var memberOutput = new CodedOutputStream(body);
            if (member.Id != 0)
            {
                memberOutput.WriteTag(1, ProtoWireFormat.WireType.Varint);
                memberOutput.WriteInt32(member.Id);
            }

            WriteString(memberOutput, 2, member.Name);
            WriteString(memberOutput, 3, member.Description);
            WriteString(memberOutput, 4, member.Address);
            if (BitConverter.DoubleToInt64Bits(member.Value) != 0)
            {
                memberOutput.WriteTag(5, ProtoWireFormat.WireType.Fixed64);
                memberOutput.WriteDouble(member.Value);
            }

            if (member.UpdateTime != 0)
            {
                memberOutput.WriteTag(6, ProtoWireFormat.WireType.Varint);
                memberOutput.WriteInt64(member.UpdateTime);
            }

            memberOutput.Flush();
            output.WriteTag(3, ProtoWireFormat.WireType.LengthDelimited);
            output.WriteBytes(ByteString.CopyFrom(body.ToArray()));
        }

        output.Flush();
        return stream.ToArray();
    }

    private static void WriteString(CodedOutputStream output, int field, string? value)
    {
        if (value is not null)
        {
            output.WriteTag(field, ProtoWireFormat.WireType.LengthDelimited);
            output.WriteString(value);
        }
    }
}
