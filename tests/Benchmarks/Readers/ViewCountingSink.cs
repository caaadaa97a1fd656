using WebSerialization.Models.Codecs;

namespace WebSerialization.Benchmarks.Readers;

/// <summary>
/// A sink that builds nothing: it adds up each member's id, text lengths and number bits, so that a reader's work
/// cannot be skipped, and what it costs is the reader's alone.
/// </summary>
internal sealed class ViewCountingSink : IOrganizationSink
{
    public long Members { get; private set; }

    public long Total { get; private set; }

    public void BeginMembers(OrganizationHeader header)
    {
    }

    public void AddMember(in MemberView member)
    {
        Members++;
        Total += member.Id + member.Name.Bytes.Length + member.Description.Bytes.Length + member.Address.Bytes.Length
            + BitConverter.DoubleToInt64Bits(member.Value) + member.UpdateTime;
    }

    public void Complete(OrganizationHeader header)
    {
    }
}
