namespace WebSerialization.Api.Organizations;

/// <summary>Configuration section <c>Organization</c>.</summary>
public sealed class OrganizationOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "Organization";

    /// <summary>How many members the served organization has (and so the largest <c>count</c>).</summary>
    public int MemberCount { get; set; } = WebSerialization.Models.OrganizationGenerator.ArticleMemberCount;

    /// <summary>Bytes encoded between two flushes of a streamed response.</summary>
    public int ChunkSize { get; set; } = WebSerialization.Models.Streaming.OrganizationStreamWriter.DefaultChunkSize;

    /// <summary>Whether every encoder is warmed up before the server takes requests (see <see cref="SeedOrganizationWarmUp"/>).</summary>
    public bool WarmUp { get; set; } = true;

    /// <summary>Downloads the server makes from itself once it listens, on one processor only (see <see cref="HttpWarmUp"/>); 0: none.</summary>
    public int HttpWarmUpRequests { get; set; } = 200;
}
