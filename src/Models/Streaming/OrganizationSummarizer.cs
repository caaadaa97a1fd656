using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// The sink behind an upload's summary: folds each member into an <see cref="OrganizationChecksumBuilder"/> and drops
/// it, so summarizing any number of members takes the memory of one and allocates nothing per member.
/// </summary>
public sealed class OrganizationSummarizer : IOrganizationSink
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

    /// <summary>
    /// The answer to an upload of this payload in <paramref name="format"/>: what was decoded, with the bytes read and
    /// the time taken. The HTTP upload and the gRPC upload both answer it.
    /// </summary>
    /// <exception cref="InvalidOperationException">The payload is not complete yet.</exception>
    public UploadSummary ToSummary(WireFormat format, long bytesRead, TimeSpan elapsed)
    {
        ArgumentNullException.ThrowIfNull(format);
        return new UploadSummary(
            format.Key,
            Math.Max(0, Header.MemberCount),
            Header.Tags?.Length ?? 0,
            bytesRead,
            elapsed.TotalMilliseconds,
            Checksum ?? throw new InvalidOperationException("The payload is not complete yet."));
    }

}
