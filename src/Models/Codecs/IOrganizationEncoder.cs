using System.Buffers;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// Encodes one <see cref="Organization"/> in pieces, so that a caller can flush between pieces and keep memory at
/// the chunk size whatever the member count. An instance serves one payload: it may keep state between calls
/// (the previous member, a JSON writer), so create one per response with <see cref="IWireFormatCodec.CreateEncoder"/>.
/// Every method writes synchronously into the output it is given and returns the number of bytes it wrote.
/// </summary>
public interface IOrganizationEncoder
{
    /// <summary>Writes everything that comes before the first member.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="organization">The organization; its <see cref="Organization.Members"/> are not written here.</param>
    /// <param name="memberCount">How many of its members will follow (ignored when <see cref="Organization.Members"/> is null).</param>
    long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount);

    /// <summary>Writes the next members, in order.</summary>
    long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members);

    /// <summary>
    /// Writes the next member from a decoder's view (a conversion), the same bytes as <see cref="WriteMembers"/> writes
    /// for that member as an object. A payload's members are written all one way or all the other.
    /// </summary>
    long WriteMember(IBufferWriter<byte> output, in MemberView member);

    /// <summary>Writes everything after the last member.</summary>
    long WriteFooter(IBufferWriter<byte> output);
}
