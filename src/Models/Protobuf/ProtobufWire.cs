using Google.Protobuf;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// The protobuf contract of the model, field by field. Mirrors the schema served at <c>/api/organization.proto</c>:
/// <code>
/// message Organization { int32 Id = 1; repeated string Tags = 2; repeated Member Members = 3; }
/// message Member { int32 Id = 1; string Name = 2; string Description = 3; string Address = 4; double Value = 5; int64 UpdateTime = 6; }
/// </code>
/// As in proto3 and protobuf-net, zero numbers and null strings are not written; an empty string is.
/// </summary>
internal static class ProtobufWire
{
    public const int OrganizationId = 1;
    public const int OrganizationTags = 2;
    public const int OrganizationMembers = 3;

    public const int MemberId = 1;
    public const int MemberName = 2;
    public const int MemberDescription = 3;
    public const int MemberAddress = 4;
    public const int MemberValue = 5;
    public const int MemberUpdateTime = 6;

    public static readonly uint OrganizationIdTag = ProtoWireFormat.MakeTag(OrganizationId, ProtoWireFormat.WireType.Varint);
    public static readonly uint OrganizationTagsTag = ProtoWireFormat.MakeTag(OrganizationTags, ProtoWireFormat.WireType.LengthDelimited);
    public static readonly uint OrganizationMembersTag = ProtoWireFormat.MakeTag(OrganizationMembers, ProtoWireFormat.WireType.LengthDelimited);

    public static readonly uint MemberIdTag = ProtoWireFormat.MakeTag(MemberId, ProtoWireFormat.WireType.Varint);
    public static readonly uint MemberNameTag = ProtoWireFormat.MakeTag(MemberName, ProtoWireFormat.WireType.LengthDelimited);
    public static readonly uint MemberDescriptionTag = ProtoWireFormat.MakeTag(MemberDescription, ProtoWireFormat.WireType.LengthDelimited);
    public static readonly uint MemberAddressTag = ProtoWireFormat.MakeTag(MemberAddress, ProtoWireFormat.WireType.LengthDelimited);
    public static readonly uint MemberValueTag = ProtoWireFormat.MakeTag(MemberValue, ProtoWireFormat.WireType.Fixed64);
    public static readonly uint MemberUpdateTimeTag = ProtoWireFormat.MakeTag(MemberUpdateTime, ProtoWireFormat.WireType.Varint);

    /// <summary>The encoded size of a member's body (without its tag and length prefix). Every tag is one byte.</summary>
    public static int ComputeMemberSize(Member member)
    {
        var size = 0;
        if (member.Id != 0)
        {
            size += 1 + CodedOutputStream.ComputeInt32Size(member.Id);
        }

        size += ComputeOptionalStringSize(member.Name);
        size += ComputeOptionalStringSize(member.Description);
        size += ComputeOptionalStringSize(member.Address);

        // -0.0 is written: its bits are not zero, and it must round-trip.
        if (BitConverter.DoubleToInt64Bits(member.Value) != 0)
        {
            size += 1 + sizeof(double);
        }

        if (member.UpdateTime != 0)
        {
            size += 1 + CodedOutputStream.ComputeInt64Size(member.UpdateTime);
        }

        return size;
    }

    public static void WriteMember(CodedOutputStream output, Member member)
    {
        if (member.Id != 0)
        {
            output.WriteRawTag((byte)MemberIdTag);
            output.WriteInt32(member.Id);
        }

        WriteOptionalString(output, MemberNameTag, member.Name);
        WriteOptionalString(output, MemberDescriptionTag, member.Description);
        WriteOptionalString(output, MemberAddressTag, member.Address);
        if (BitConverter.DoubleToInt64Bits(member.Value) != 0)
        {
            output.WriteRawTag((byte)MemberValueTag);
            output.WriteDouble(member.Value);
        }

        if (member.UpdateTime != 0)
        {
            output.WriteRawTag((byte)MemberUpdateTimeTag);
            output.WriteInt64(member.UpdateTime);
        }
    }

    private static int ComputeOptionalStringSize(string? value) =>
        value is null ? 0 : 1 + CodedOutputStream.ComputeStringSize(value);

    private static void WriteOptionalString(CodedOutputStream output, uint tag, string? value)
    {
        if (value is not null)
        {
            output.WriteRawTag((byte)tag);
            output.WriteString(value);
        }
    }
}
