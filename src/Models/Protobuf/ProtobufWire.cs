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
/// <remarks>
/// A field is a tag, <c>(fieldNumber &lt;&lt; 3) | wireType</c> as a varint, then a value of that wire type. Every field
/// of this schema numbers below 16, so each of its tags is the one byte below.
/// </remarks>
internal static class ProtobufWire
{
    /// <summary>Wire type 0: a varint (int32, int64; a negative int32 sign-extended to 10 bytes).</summary>
    public const int Varint = 0;

    /// <summary>Wire type 1: 8 bytes, little-endian (double).</summary>
    public const int Fixed64 = 1;

    /// <summary>Wire type 2: a varint length, then that many bytes (string, embedded message).</summary>
    public const int LengthDelimited = 2;

    /// <summary>Wire type 3: the start of a group, fields up to the matching end-group tag (proto2; only skipped).</summary>
    public const int StartGroup = 3;

    /// <summary>Wire type 4: the end of a group.</summary>
    public const int EndGroup = 4;

    /// <summary>Wire type 5: 4 bytes, little-endian.</summary>
    public const int Fixed32 = 5;

    /// <summary>The bits of a tag that hold the wire type; the rest, shifted right by 3, hold the field number.</summary>
    public const int WireTypeMask = 7;

    public const int OrganizationId = 1;
    public const int OrganizationTags = 2;
    public const int OrganizationMembers = 3;

    public const int MemberId = 1;
    public const int MemberName = 2;
    public const int MemberDescription = 3;
    public const int MemberAddress = 4;
    public const int MemberValue = 5;
    public const int MemberUpdateTime = 6;

    public const byte OrganizationIdTag = (OrganizationId << 3) | Varint;
    public const byte OrganizationTagsTag = (OrganizationTags << 3) | LengthDelimited;
    public const byte OrganizationMembersTag = (OrganizationMembers << 3) | LengthDelimited;

    public const byte MemberIdTag = (MemberId << 3) | Varint;
    public const byte MemberNameTag = (MemberName << 3) | LengthDelimited;
    public const byte MemberDescriptionTag = (MemberDescription << 3) | LengthDelimited;
    public const byte MemberAddressTag = (MemberAddress << 3) | LengthDelimited;
    public const byte MemberValueTag = (MemberValue << 3) | Fixed64;
    public const byte MemberUpdateTimeTag = (MemberUpdateTime << 3) | Varint;
}
