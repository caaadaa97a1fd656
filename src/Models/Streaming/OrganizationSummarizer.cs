using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// The sink behind an upload's summary: folds each member into an <see cref="OrganizationChecksumBuilder"/> and drops
/// it, so summarizing any number of members takes the memory of one and allocates nothing per member.
/// </summary>
public sealed class OrganizationSummarizer : IOrganizationSink, IDisposable
{
    private readonly OrganizationChecksumBuilder _checksum = new();

    /// <summary>The final header, once complete.</summary>
    public OrganizationHeader Header { get; private set; }

    /// <summary>The content checksum (<see cref="OrganizationChecksum"/>), once complete.</summary>
    public string? Checksum { get; private set; }

    /// <inheritdoc />
    public void BeginMembers(OrganizationHeader header)
    {
    }

    /// <inheritdoc />
    public void AddMember(in MemberView member) => _checksum.Append(member);

    /// <inheritdoc />
    public void Complete(OrganizationHeader header)
    {
        Header = header;
        Checksum = _checksum.Complete(header.Id, header.Tags, header.HasMembers);
    }

    /// <summary>Releases the hash.</summary>
    public void Dispose() => _checksum.Dispose();
}
