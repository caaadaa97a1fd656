using System.Buffers;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// Writes <c>[Id, Tags, Members]</c> with the members array's header up front (its count is known from
/// <see cref="WriteHeader"/>), then the members as they come, each <c>[Id, Name, Description, Address, Value, UpdateTime]</c>.
/// MessagePack has no end marker, so the footer is empty; it only checks that the announced members all came.
/// </summary>
/// <remarks>
/// Kept beside MessagePack-CSharp, which writes the same bytes (tests/Codecs/Libraries), for a bound the library's calls
/// lack (it writes into the response's pipe between the flushes that bound its memory, where <c>Serialize(Stream)</c>
/// builds the whole body first) and for speed: the rows "MessagePack stream" and "MessagePack-CSharp Stream" (the library's faster call) in
/// docs/results/benchmarks.md (<c>dotnet run -c Release --project tests/Benchmarks</c>).
/// </remarks>
internal sealed class MessagePackOrganizationEncoder : IOrganizationEncoder
{
    // The bytes of a member apart from its strings: a fixarray header, Id and UpdateTime as integers, Value.
    private const int MaxMemberFixedBytes = 1 + MessagePackWireWriter.MaxIntegerBytes + MessagePackWireWriter.MaxFloat64Bytes + MessagePackWireWriter.MaxIntegerBytes;

    // -1: the header has not been written yet.
    private long _membersAnnounced = -1;
    private long _membersWritten;

    public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(organization);
        ArgumentOutOfRangeException.ThrowIfNegative(memberCount);
        if (_membersAnnounced >= 0)
        {
            throw new InvalidOperationException("The header has already been written.");
        }

        var writer = new MessagePackWireWriter(output);
        writer.WriteArrayHeader(MessagePackCodec.OrganizationFieldCount);
        writer.WriteInteger(organization.Id);
        if (organization.Tags is { } tags)
        {
            writer.WriteArrayHeader((uint)tags.Length);
            foreach (var tag in tags)
            {
                writer.WriteString(tag);
            }
        }
        else
        {
            writer.WriteNil();
        }

        if (organization.Members is null)
        {
            writer.WriteNil();
            _membersAnnounced = 0;
        }
        else
        {
            writer.WriteArrayHeader((uint)memberCount);
            _membersAnnounced = memberCount;
        }

        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members)
    {
        ArgumentNullException.ThrowIfNull(output);
        CheckRoomFor(members.Length);

        var writer = new MessagePackWireWriter(output);
        foreach (var member in members)
        {
            // MessagePack-CSharp would write nil here, but the model has no null members and the decoder accepts none.
            if (member is null)
            {
                throw new ArgumentException("A member is null.", nameof(members));
            }

            WriteMember(ref writer, member);
        }

        _membersWritten += members.Length;
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteMember(IBufferWriter<byte> output, in MemberView member)
    {
        ArgumentNullException.ThrowIfNull(output);
        CheckRoomFor(1);
        var writer = new MessagePackWireWriter(output);
        var span = writer.Reserve(checked(MaxMemberFixedBytes + MessagePackWireWriter.MaxStringBytes(member.Name)
            + MessagePackWireWriter.MaxStringBytes(member.Description) + MessagePackWireWriter.MaxStringBytes(member.Address)));
        var written = MessagePackWireWriter.WriteArrayHeader(span, MessagePackCodec.MemberFieldCount);
        written += MessagePackWireWriter.WriteInteger(span[written..], member.Id);
        written += MessagePackWireWriter.WriteString(span[written..], member.Name);
        written += MessagePackWireWriter.WriteString(span[written..], member.Description);
        written += MessagePackWireWriter.WriteString(span[written..], member.Address);
        written += MessagePackWireWriter.WriteFloat64(span[written..], member.Value);
        written += MessagePackWireWriter.WriteInteger(span[written..], member.UpdateTime);
        writer.Advance(written);
        _membersWritten++;
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteFooter(IBufferWriter<byte> output)
    {
        if (_membersAnnounced < 0)
        {
            throw new InvalidOperationException("WriteHeader must come first.");
        }

        if (_membersWritten != _membersAnnounced)
        {
            throw new InvalidOperationException($"The header announced {_membersAnnounced} members; only {_membersWritten} were written.");
        }

        return 0;
    }

    // One reservation a member, the values then written without a check each: the code stays fast without the JIT's
    // profile-guided inlining of the per-value writers. A member with a string too long to bound this way is written value by value.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteMember(ref MessagePackWireWriter writer, Member member)
    {
        var name = member.Name;
        var description = member.Description;
        var address = member.Address;
        if (!MessagePackWireWriter.IsShortString(name) || !MessagePackWireWriter.IsShortString(description) || !MessagePackWireWriter.IsShortString(address))
        {
            WriteMemberValueByValue(ref writer, member);
            return;
        }

        var span = writer.Reserve(MaxMemberFixedBytes + MessagePackWireWriter.MaxShortStringBytes(name)
            + MessagePackWireWriter.MaxShortStringBytes(description) + MessagePackWireWriter.MaxShortStringBytes(address));
        var written = MessagePackWireWriter.WriteArrayHeader(span, MessagePackCodec.MemberFieldCount);
        written += MessagePackWireWriter.WriteInteger(span[written..], member.Id);
        written += MessagePackWireWriter.WriteShortString(span[written..], name);
        written += MessagePackWireWriter.WriteShortString(span[written..], description);
        written += MessagePackWireWriter.WriteShortString(span[written..], address);
        written += MessagePackWireWriter.WriteFloat64(span[written..], member.Value);
        written += MessagePackWireWriter.WriteInteger(span[written..], member.UpdateTime);
        writer.Advance(written);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteMemberValueByValue(ref MessagePackWireWriter writer, Member member)
    {
        writer.WriteArrayHeader(MessagePackCodec.MemberFieldCount);
        writer.WriteInteger(member.Id);
        writer.WriteString(member.Name);
        writer.WriteString(member.Description);
        writer.WriteString(member.Address);
        writer.WriteFloat64(member.Value);
        writer.WriteInteger(member.UpdateTime);
    }

    private void CheckRoomFor(int count)
    {
        if (_membersAnnounced < 0)
        {
            throw new InvalidOperationException("WriteHeader must come first.");
        }

        // The count is already on the wire: one member more or fewer would shift every byte after it.
        if (_membersWritten + count > _membersAnnounced)
        {
            throw new InvalidOperationException($"The header announced {_membersAnnounced} members; {_membersWritten + count} were given.");
        }
    }
}
