namespace WebSerialization.Models.Codecs;

/// <summary>
/// What a decoder accepts from untrusted input. Every declared length and count is checked against these and
/// against the bytes actually available before anything is allocated for it.
/// </summary>
public sealed record DecodeLimits
{
    /// <summary>The defaults: room for the seed's 1,000,000 members with headroom, nothing much beyond.</summary>
    public static DecodeLimits Default { get; } = new();

    /// <summary>Most members one organization may have.</summary>
    public int MaxMembers { get; init; } = 2_000_000;

    /// <summary>Most tags one organization may have.</summary>
    public int MaxTags { get; init; } = 10_000;

    /// <summary>Most UTF-8 bytes of any one string.</summary>
    public int MaxStringBytes { get; init; } = 64 * 1024;

    /// <summary>Deepest nesting accepted (the model itself needs 3: organization, members array, member).</summary>
    public int MaxDepth { get; init; } = 8;
}
