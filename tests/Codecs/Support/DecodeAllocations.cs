namespace WebSerialization.Codecs.Tests.Support;

/// <summary>
/// Measures what a decoder allocates beyond the objects it returns: the bytes allocated while decoding, less the
/// bytes that building the same organization directly allocates (same members, strings and member list).
/// </summary>
internal static class DecodeAllocations
{
    /// <summary>
    /// Bytes allocated per member beyond the decoded objects, decoding from 4 KB segments as a pipe delivers them. A
    /// format that states the member count before the members (MessagePack, binary) lets its decoder size the list
    /// once, so the objects it is compared with are built in a list sized up front; the others grow a list as it fills.
    /// </summary>
    public static double OverheadPerMember(IWireFormatCodec codec, Organization organization)
    {
        ArgumentNullException.ThrowIfNull(codec);
        var countComesFirst = codec.MemberCountComesFirst;
        var payload = BufferSegment.Split(CodecHarness.Encode(codec, organization), 4096);
        CodecHarness.Decode(codec, payload);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var decoded = CodecHarness.Decode(codec, payload);
        var decoding = GC.GetAllocatedBytesForCurrentThread() - before;

        before = GC.GetAllocatedBytesForCurrentThread();
        var copy = Copy(decoded, countComesFirst);
        var building = GC.GetAllocatedBytesForCurrentThread() - before;

        GC.KeepAlive(copy);
        return (decoding - building) / (double)organization.Members!.Count;
    }

    /// <summary>
    /// Bytes allocated per member decoding into an <see cref="OrganizationSummarizer"/>, a sink that builds no objects,
    /// from 4 KB segments as a pipe delivers them; the least of three decodes (<see cref="ThreadAllocations.LeastOfThree"/>),
    /// each with a decoder and summarizer made before it is measured. Also returns the summary's checksum.
    /// </summary>
    public static (double PerMember, string Checksum) IntoSummaryPerMember(IWireFormatCodec codec, Organization organization)
    {
        ArgumentNullException.ThrowIfNull(codec);
        var payload = BufferSegment.Split(CodecHarness.Encode(codec, organization), 4096);
        OrganizationSummarizer? last = null;
        var allocated = ThreadAllocations.LeastOfThree(() =>
        {
            var summarizer = last = new OrganizationSummarizer();
            var decoder = codec.CreateDecoder(DecodeLimits.Default, summarizer);
            return () => decoder.Decode(payload, isFinalBlock: true);
        });

        return (allocated / (double)organization.Members!.Count, last!.Checksum!);
    }

    private static Organization Copy(Organization organization, bool countComesFirst)
    {
        var members = countComesFirst ? new List<Member>(organization.Members!.Count) : [];
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
