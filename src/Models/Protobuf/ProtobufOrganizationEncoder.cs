using System.Buffers;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;
using static WebSerialization.Models.Protobuf.ProtobufWire;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Writes an organization as protobuf with <see cref="ProtobufWireWriter"/>: the fields before the members, then each
/// element of the repeated <c>Members</c> field (tag, length, member). The static parts are shared with the gRPC
/// marshaller, which measures a message before writing it.
/// </summary>
internal sealed class ProtobufOrganizationEncoder : IOrganizationEncoder
{
    // The most bytes a member takes apart from its strings' UTF-8 bytes: its tag and length, a negative Id (10 bytes,
    // as int32 is sign-extended), three string tags and lengths, Value and a negative UpdateTime.
    private const int MaxMemberFixedBytes = 1 + 5 + (1 + 10) + (3 * (1 + 5)) + (1 + sizeof(double)) + (1 + 10);

    public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(organization);
        var writer = new ProtobufWireWriter(output);
        WriteHeaderFields(ref writer, organization);
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members)
    {
        ArgumentNullException.ThrowIfNull(output);
        var writer = new ProtobufWireWriter(output);
        foreach (var member in members)
        {
            ArgumentNullException.ThrowIfNull(member, nameof(members));
            WriteMemberField(ref writer, member);
        }

        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteMember(IBufferWriter<byte> output, in MemberView member)
    {
        ArgumentNullException.ThrowIfNull(output);
        var writer = new ProtobufWireWriter(output);
        writer.Reserve(checked(MaxMemberFixedBytes + member.Name.Bytes.Length + member.Description.Bytes.Length + member.Address.Bytes.Length));
        writer.WriteRawTag(OrganizationMembersTag);
        var lengthPosition = writer.BeginLengthDelimited();
        WriteInt32(ref writer, MemberIdTag, member.Id);
        WriteString(ref writer, MemberNameTag, member.Name);
        WriteString(ref writer, MemberDescriptionTag, member.Description);
        WriteString(ref writer, MemberAddressTag, member.Address);
        WriteNumbers(ref writer, member.Value, member.UpdateTime);
        writer.EndLengthDelimited(lengthPosition);
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteFooter(IBufferWriter<byte> output) => 0;

    /// <summary>The fields before the members: Id, unless it is 0, and each tag.</summary>
    public static void WriteHeaderFields(ref ProtobufWireWriter writer, Organization organization) =>
        WriteHeaderFields(ref writer, organization.Id, organization.Tags);

    /// <summary>The fields before the members, given as an organization's <paramref name="id"/> and <paramref name="tags"/>.</summary>
    public static void WriteHeaderFields(ref ProtobufWireWriter writer, int id, string?[]? tags)
    {
        if (id != 0)
        {
            writer.Reserve(1 + 10);
            writer.WriteRawTag(OrganizationIdTag);
            writer.WriteVarint((ulong)id);
        }

        foreach (var tag in tags ?? [])
        {
            // A repeated string cannot hold null; a null tag goes on the wire as an empty string.
            writer.Reserve(checked(1 + 5 + Utf8Transcoder.ByteCount(tag)));
            WriteString(ref writer, OrganizationTagsTag, tag ?? string.Empty);
        }
    }

    /// <summary>One element of the repeated Members field: its tag, its length and the member.</summary>
    public static void WriteMemberField(ref ProtobufWireWriter writer, Member member)
    {
        var name = member.Name;
        var description = member.Description;
        var address = member.Address;

        // Three bytes a char bound the strings' UTF-8 without reading them; only when that bound does not fit in the
        // current span are they measured, so that a member near a span's end asks for no more than it may need.
        var chars = (long)(name?.Length ?? 0) + (description?.Length ?? 0) + (address?.Length ?? 0);
        if (!writer.HasRoom(MaxMemberFixedBytes + (3 * chars)))
        {
            writer.Reserve(checked(MaxMemberFixedBytes + Utf8Transcoder.ByteCount(name) + Utf8Transcoder.ByteCount(description) + Utf8Transcoder.ByteCount(address)));
        }

        writer.WriteRawTag(OrganizationMembersTag);
        var lengthPosition = writer.BeginLengthDelimited();
        WriteInt32(ref writer, MemberIdTag, member.Id);
        if (name is not null)
        {
            WriteString(ref writer, MemberNameTag, name);
        }

        if (description is not null)
        {
            WriteString(ref writer, MemberDescriptionTag, description);
        }

        if (address is not null)
        {
            WriteString(ref writer, MemberAddressTag, address);
        }

        WriteNumbers(ref writer, member.Value, member.UpdateTime);
        writer.EndLengthDelimited(lengthPosition);
    }

    // As proto3 and protobuf-net: a zero number is not written.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteInt32(ref ProtobufWireWriter writer, byte tag, int value)
    {
        if (value != 0)
        {
            writer.WriteRawTag(tag);
            writer.WriteVarint((ulong)value);
        }
    }

    // -0.0 is written: its bits are not zero, and it must round-trip.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteNumbers(ref ProtobufWireWriter writer, double value, long updateTime)
    {
        var valueBits = BitConverter.DoubleToUInt64Bits(value);
        if (valueBits != 0)
        {
            writer.WriteRawTag(MemberValueTag);
            writer.WriteFixed64(valueBits);
        }

        if (updateTime != 0)
        {
            writer.WriteRawTag(MemberUpdateTimeTag);
            writer.WriteVarint((ulong)updateTime);
        }
    }

    // A null text is not written; the length of the bytes is known, so it goes first.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteString(ref ProtobufWireWriter writer, byte tag, Utf8Text value)
    {
        if (!value.IsNull)
        {
            writer.WriteRawTag(tag);
            writer.WriteVarint((uint)value.Bytes.Length);
            writer.WriteBytes(value.Bytes);
        }
    }

    /// <summary>The bytes the header of an organization with <paramref name="id"/> and <paramref name="tags"/> takes.</summary>
    public static long MeasureHeader(int id, string?[]? tags)
    {
        var size = id != 0 ? 1 + Leb128.Length((ulong)id) : 0L;
        foreach (var tag in tags ?? [])
        {
            size += 1 + LengthDelimited(Utf8Transcoder.ByteCount(tag));
        }

        return size;
    }

    /// <summary>The bytes <see cref="WriteMemberField"/> writes: the member with its tag and length.</summary>
    public static long MeasureMember(Member member)
    {
        var size = member.Id != 0 ? 1 + Leb128.Length((ulong)member.Id) : 0L;
        size += member.Name is null ? 0 : 1 + LengthDelimited(Utf8Transcoder.ByteCount(member.Name, member.Name.Length));
        size += member.Description is null ? 0 : 1 + LengthDelimited(Utf8Transcoder.ByteCount(member.Description, member.Description.Length));
        size += member.Address is null ? 0 : 1 + LengthDelimited(Utf8Transcoder.ByteCount(member.Address, member.Address.Length));
        size += BitConverter.DoubleToUInt64Bits(member.Value) != 0 ? 1 + sizeof(double) : 0;
        size += member.UpdateTime != 0 ? 1 + Leb128.Length((ulong)member.UpdateTime) : 0;
        return 1 + LengthDelimited(size);
    }

    private static long LengthDelimited(long length) => Leb128.Length((ulong)length) + length;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteString(ref ProtobufWireWriter writer, byte tag, string value)
    {
        writer.WriteRawTag(tag);
        var lengthPosition = writer.BeginLengthDelimited();
        writer.WriteUtf8(value);
        writer.EndLengthDelimited(lengthPosition);
    }

}
