namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Measures what code allocates on the calling thread, for tests that bound allocations per member.</summary>
internal static class Allocations
{
    /// <summary>
    /// Bytes the action returned by <paramref name="prepare"/> allocates, the least of three measurements, each after
    /// its own unmeasured preparation: a one-off allocation from outside the measured code now and then lands in one
    /// measurement, while an allocation per member shows in all three.
    /// </summary>
    public static long LeastOfThree(Func<Action> prepare)
    {
        var allocated = long.MaxValue;
        for (var measurement = 0; measurement < 3; measurement++)
        {
            var measured = prepare();
            var before = GC.GetAllocatedBytesForCurrentThread();
            measured();
            allocated = Math.Min(allocated, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        return allocated;
    }

    /// <summary>
    /// Bytes allocated writing every batch of 64 members after the first, into an output that never has to grow: the
    /// first batch runs the code paths once (JIT, statics) and is not measured. The least of three measurements.
    /// </summary>
    public static long EncodingAfterTheFirstBatch(IWireFormatCodec codec, Organization organization)
    {
        const int Batch = 64;
        var members = organization.Members!.ToArray();
        return LeastOfThree(() =>
        {
            var output = new ArrayBufferWriter<byte>(16 * 1024 * 1024);
            var encoder = codec.CreateEncoder();
            encoder.WriteHeader(output, organization, members.Length);
            encoder.WriteMembers(output, members.AsSpan(0, Math.Min(Batch, members.Length)));
            return () =>
            {
                for (var index = Batch; index < members.Length; index += Batch)
                {
                    encoder.WriteMembers(output, members.AsSpan(index, Math.Min(Batch, members.Length - index)));
                }
            };
        });
    }

    /// <summary>
    /// Bytes allocated per member decoding beyond the decoded objects, from 4 KB segments as a pipe delivers them: the
    /// bytes allocated while decoding, less those that building the same organization directly allocates. A format that
    /// states the member count before the members (MessagePack, binary) lets its decoder size the list once, so the
    /// objects it is compared with are built in a list sized up front; the others grow a list as it fills.
    /// </summary>
    public static double DecodingOverheadPerMember(IWireFormatCodec codec, Organization organization)
    {
        var payload = BufferSegment.Split(Encode(codec, organization), 4096);
        Decode(codec, payload);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var decoded = Decode(codec, payload);
        var decoding = GC.GetAllocatedBytesForCurrentThread() - before;

        before = GC.GetAllocatedBytesForCurrentThread();
        var members = codec.MemberCountComesFirst ? new List<Member>(decoded.Members!.Count) : [];
        foreach (var member in decoded.Members!)
        {
            members.Add(new Member { Id = member.Id, Name = Copy(member.Name), Description = Copy(member.Description), Address = Copy(member.Address), Value = member.Value, UpdateTime = member.UpdateTime });
        }

        var copy = new Organization { Id = decoded.Id, Tags = decoded.Tags?.Select(Copy).ToArray()!, Members = members };
        var building = GC.GetAllocatedBytesForCurrentThread() - before;

        GC.KeepAlive(copy);
        return (decoding - building) / (double)organization.Members!.Count;
    }

    /// <summary>
    /// Bytes allocated per member decoding into an <see cref="OrganizationSummarizer"/>, a sink that builds no objects,
    /// from 4 KB segments as a pipe delivers them; the least of three decodes, each with a decoder and summarizer made
    /// before it is measured. Also returns the summary's checksum.
    /// </summary>
    public static (double PerMember, string Checksum) DecodingIntoASummaryPerMember(IWireFormatCodec codec, Organization organization)
    {
        var payload = BufferSegment.Split(Encode(codec, organization), 4096);
        OrganizationSummarizer? last = null;
        var allocated = LeastOfThree(() =>
        {
            var summarizer = last = new OrganizationSummarizer();
            var decoder = codec.CreateDecoder(DecodeLimits.Default, summarizer);
            return () => decoder.Decode(payload, isFinalBlock: true);
        });

        return (allocated / (double)organization.Members!.Count, last!.Checksum!);
    }

    private static string? Copy(string? value) => value is null ? null : new string(value.AsSpan());
}
