using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// The protobuf contract of the model, field by field. Mirrors the schema served at <c>/api/organization.proto</c>:
/// <code>
/// message Organization { int32 Id = 1; repeated string Tags = 2; repeated Member Members = 3; }
/// message Member { int32 Id = 1; string Name = 2; string Description = 3; string Address = 4; double Value = 5; int64 UpdateTime = 6; }
/// </code>
/// As in proto3 and protobuf-net, zero numbers and null strings are not written; an empty string is. A Value of -0.0
/// is written, as the proto3 specification requires and protobuf-net does not (docs/libraries.md).
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
}
