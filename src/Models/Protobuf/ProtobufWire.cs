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

    // The most bytes a member takes apart from its strings' UTF-8 bytes: its tag and length, a negative Id (10 bytes,
    // as int32 is sign-extended), three string tags and lengths, Value and a negative UpdateTime.
    private const int MaxMemberFixedBytes = 1 + 5 + (1 + 10) + (3 * (1 + 5)) + (1 + sizeof(double)) + (1 + 10);

    /// <summary>The fields before the members: Id, unless it is 0, and each tag.</summary>
    public static void WriteHeader(ref ProtobufBufferWriter writer, Organization organization) =>
        WriteHeader(ref writer, organization.Id, organization.Tags);

    /// <summary>The fields before the members, given as an organization's <paramref name="id"/> and <paramref name="tags"/>.</summary>
    public static void WriteHeader(ref ProtobufBufferWriter writer, int id, string?[]? tags)
    {
        if (id != 0)
        {
            writer.Reserve(1 + 10);
            writer.WriteRawTag((byte)OrganizationIdTag);
            writer.WriteVarint((ulong)id);
        }

        foreach (var tag in tags ?? [])
        {
            // A repeated string cannot hold null; a null tag goes on the wire as an empty string.
            writer.Reserve(checked(1 + 5 + Utf8Length(tag)));
            WriteString(ref writer, (byte)OrganizationTagsTag, tag ?? string.Empty);
        }
    }

    /// <summary>One element of the repeated Members field: its tag, its length and the member.</summary>
    public static void WriteMember(ref ProtobufBufferWriter writer, Member member)
    {
        var name = member.Name;
        var description = member.Description;
        var address = member.Address;

        // Three bytes a char bound the strings' UTF-8 without reading them; only when that bound does not fit in the
        // current span are they measured, so that a member near a span's end asks for no more than it may need.
        var chars = (long)(name?.Length ?? 0) + (description?.Length ?? 0) + (address?.Length ?? 0);
        if (!writer.HasRoom(MaxMemberFixedBytes + (3 * chars)))
        {
            writer.Reserve(checked(MaxMemberFixedBytes + Utf8Length(name) + Utf8Length(description) + Utf8Length(address)));
        }

        writer.WriteRawTag((byte)OrganizationMembersTag);
        var lengthPosition = writer.BeginLengthDelimited();
        if (member.Id != 0)
        {
            writer.WriteRawTag((byte)MemberIdTag);
            writer.WriteVarint((ulong)member.Id);
        }

        if (name is not null)
        {
            WriteString(ref writer, (byte)MemberNameTag, name);
        }

        if (description is not null)
        {
            WriteString(ref writer, (byte)MemberDescriptionTag, description);
        }

        if (address is not null)
        {
            WriteString(ref writer, (byte)MemberAddressTag, address);
        }

        // -0.0 is written: its bits are not zero, and it must round-trip.
        var valueBits = BitConverter.DoubleToUInt64Bits(member.Value);
        if (valueBits != 0)
        {
            writer.WriteRawTag((byte)MemberValueTag);
            writer.WriteFixed64(valueBits);
        }

        if (member.UpdateTime != 0)
        {
            writer.WriteRawTag((byte)MemberUpdateTimeTag);
            writer.WriteVarint((ulong)member.UpdateTime);
        }

        writer.EndLengthDelimited(lengthPosition);
    }

    /// <summary>The bytes the header of an organization with <paramref name="id"/> and <paramref name="tags"/> takes.</summary>
    public static long MeasureHeader(int id, string?[]? tags)
    {
        var size = id != 0 ? 1 + VarintLength((ulong)id) : 0L;
        foreach (var tag in tags ?? [])
        {
            size += 1 + LengthDelimited(Utf8Length(tag));
        }

        return size;
    }

    /// <summary>The bytes <see cref="WriteMember"/> writes: the member with its tag and length.</summary>
    public static long MeasureMember(Member member)
    {
        var size = member.Id != 0 ? 1 + VarintLength((ulong)member.Id) : 0L;
        size += member.Name is null ? 0 : 1 + LengthDelimited(Utf8Length(member.Name));
        size += member.Description is null ? 0 : 1 + LengthDelimited(Utf8Length(member.Description));
        size += member.Address is null ? 0 : 1 + LengthDelimited(Utf8Length(member.Address));
        size += BitConverter.DoubleToUInt64Bits(member.Value) != 0 ? 1 + sizeof(double) : 0;
        size += member.UpdateTime != 0 ? 1 + VarintLength((ulong)member.UpdateTime) : 0;
        return 1 + LengthDelimited(size);
    }

    private static long LengthDelimited(long length) => VarintLength((ulong)length) + length;

    private static int VarintLength(ulong value) => (BitOperations.Log2(value | 1) / 7) + 1;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteString(ref ProtobufBufferWriter writer, byte tag, string value)
    {
        writer.WriteRawTag(tag);
        var lengthPosition = writer.BeginLengthDelimited();
        writer.WriteUtf8(value);
        writer.EndLengthDelimited(lengthPosition);
    }

    // Encoding.UTF8 counts a lone surrogate as the 3 bytes of U+FFFD, as Utf8.FromUtf16 writes it.
    private static int Utf8Length(ReadOnlySpan<char> chars) =>
        Ascii.IsValid(chars) ? chars.Length : Encoding.UTF8.GetByteCount(chars);
}
