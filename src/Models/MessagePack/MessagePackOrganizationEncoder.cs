using System.Buffers;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// Writes <c>[Id, Tags, Members]</c> with the members array's header up front (its count is known from
/// <see cref="WriteHeader"/>), then the members as they come, each <c>[Id, Name, Description, Address, Value, UpdateTime]</c>.
/// MessagePack has no end marker, so the footer is empty; it only checks that the announced members all came.
/// </summary>
/// <remarks>
/// Kept beside MessagePack-CSharp, which writes the same bytes (tests/Codecs/Libraries), for a bound the library's calls
/// lack (it writes into the response's pipe between 128 KB flushes, where <c>Serialize(Stream)</c> builds the whole body
/// first) and for speed: the rows "MessagePack stream" and "MessagePack-CSharp Stream" (the library's faster call) in
/// docs/results/benchmarks.md (<c>dotnet run -c Release --project tests/Benchmarks</c>).
/// </remarks>
internal sealed class MessagePackOrganizationEncoder : IOrganizationEncoder
{
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

            writer.WriteArrayHeader(MessagePackCodec.MemberFieldCount);
            writer.WriteInteger(member.Id);
            writer.WriteString(member.Name);
            writer.WriteString(member.Description);
            writer.WriteString(member.Address);
            writer.WriteFloat64(member.Value);
            writer.WriteInteger(member.UpdateTime);
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
        writer.WriteArrayHeader(MessagePackCodec.MemberFieldCount);
        writer.WriteInteger(member.Id);
        writer.WriteString(member.Name);
        writer.WriteString(member.Description);
        writer.WriteString(member.Address);
        writer.WriteFloat64(member.Value);
        writer.WriteInteger(member.UpdateTime);
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
