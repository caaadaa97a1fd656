using WebSerialization.Models;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>
/// Measures what a decoder allocates beyond the objects it returns: the bytes allocated while decoding, less the
/// bytes that building the same organization directly allocates (same members, strings and list growth).
/// </summary>
internal static class DecodeAllocations
{
    /// <summary>Bytes allocated per member beyond the decoded objects, decoding from 4 KB segments as a pipe delivers them.</summary>
    public static double OverheadPerMember(IWireFormatCodec codec, Organization organization)
    {
        var payload = BufferSegment.Split(CodecHarness.Encode(codec, organization), 4096);
        CodecHarness.DecodeAll(codec, payload);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var decoded = CodecHarness.DecodeAll(codec, payload);
        var decoding = GC.GetAllocatedBytesForCurrentThread() - before;

        before = GC.GetAllocatedBytesForCurrentThread();
        var copy = Copy(decoded);
        var building = GC.GetAllocatedBytesForCurrentThread() - before;

        GC.KeepAlive(copy);
        return (decoding - building) / (double)organization.Members!.Count;
    }

    private static Organization Copy(Organization organization)
    {
        // No initial capacity: a decoder does not know the count either, so the list grows the same way.
        var members = new List<Member>();
        foreach (var member in organization.Members!)
        {
            members.Add(new Member
            {
                Id = member.Id,
                Name = CopyOf(member.Name),
                Description = CopyOf(member.Description),
                Address = CopyOf(member.Address),
                Value = member.Value,
                UpdateTime = member.UpdateTime,
            });
        }

        return new Organization
        {
            Id = organization.Id,
            Tags = organization.Tags?.Select(CopyOf).ToArray()!,
            Members = members,
        };
    }

    private static string? CopyOf(string? value) => value is null ? null : new string(value.AsSpan());
}
