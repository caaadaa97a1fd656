namespace WebSerialization.Models.Codecs;

/// <summary>What an organization has besides its members.</summary>
/// <param name="Id">The organization's <see cref="Organization.Id"/>.</param>
/// <param name="Tags">Its <see cref="Organization.Tags"/>; a tag may be null where the format can say so.</param>
/// <param name="MemberCount">A member count: declared (<see cref="IOrganizationSink.BeginMembers"/>) or decoded (<see cref="IOrganizationSink.Complete"/>); -1 for none declared or a null Members.</param>
public readonly record struct OrganizationHeader(int Id, string?[]? Tags, int MemberCount)
{
    /// <summary>Whether the organization's Members is not null (only meaningful in <see cref="IOrganizationSink.Complete"/>).</summary>
    public bool HasMembers => MemberCount >= 0;
}
