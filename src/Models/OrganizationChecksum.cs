namespace WebSerialization.Models;

/// <summary>
/// A format-independent checksum of an organization's content, so that a client can check that a round trip
/// through any format kept every value: the lowercase hex XXH128 (xxHash's 128-bit XXH3, seed 0, its canonical
/// big-endian bytes) of the canonical encoding below. Not a cryptographic hash: it tells a changed value from the
/// original, not a forgery, and it runs at memory speed, where SHA-256 cost an upload more than decoding it did.
/// </summary>
/// <remarks>
/// The canonical encoding, every integer little-endian:
/// <code>
/// for each member, in order:
///     (byte 0x01, int32 Id, string Name, string Description, string Address, uint64 ValueBits, int64 UpdateTime)
/// byte 0x00
/// int32 memberCount        -1 when Members is null
/// int32 Id
/// int32 tagCount           -1 when Tags is null
/// string tag               tagCount times
///
/// string = (int32 byteCount, UTF-8 bytes), or int32 -1 for null
/// </code>
/// Members come first so that a server can fold each one in as it is decoded, before it knows the id and tags (a
/// JSON body may put them last); the 0x01 before each member and the 0x00 after the last keep the encoding
/// unambiguous. Two canonicalisations: every NaN is hashed as the bits 0x7FF8000000000000, because JSON cannot carry
/// a NaN's payload (-0.0 keeps its sign bit, since every format carries it); and strings are hashed as UTF-8 with
/// unpaired surrogates replaced by U+FFFD, which is how every encoder here writes them.
/// </remarks>
public static class OrganizationChecksum
{
    /// <summary>The checksum of <paramref name="organization"/>.</summary>
    /// <exception cref="ArgumentException">A member is null.</exception>
    public static string Compute(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
        var builder = new OrganizationChecksumBuilder();
        if (organization.Members is { } members)
        {
            foreach (var member in members)
            {
                builder.Append(member ?? throw new ArgumentException("The organization has a null member.", nameof(organization)));
            }
        }

        return builder.Complete(organization.Id, organization.Tags, organization.Members is not null);
    }
}
