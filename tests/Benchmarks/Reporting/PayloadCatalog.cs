using System.Diagnostics;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The checks every row passes before anything is measured (<see cref="Check"/>), and each row's payload size for the
/// size column.
/// </summary>
/// <param name="Sizes">Payload bytes by row name.</param>
/// <param name="Problems">What failed the checks; empty when every row is sound.</param>
public sealed record PayloadCatalog(IReadOnlyDictionary<string, long> Sizes, IReadOnlyList<string> Problems)
{
    /// <summary>Runs the checks on <paramref name="serializers"/>, writing one line per row to <paramref name="log"/>.</summary>
    public static PayloadCatalog Verify(IReadOnlyList<OrganizationSerializer> serializers, int memberCount, TextWriter log)
    {
        var stopwatch = Stopwatch.StartNew();
        var organization = OrganizationGenerator.Create(memberCount);
        var expected = OrganizationChecksum.Compute(organization);
        log.WriteLine($"Verifying {serializers.Count} rows on {memberCount:N0} members (checksum {expected[..16]}...)");
        var sizes = new Dictionary<string, long>();
        var problems = new List<string>();
        var firstOfFamily = new Dictionary<ContenderFamily, (string Name, byte[] Bytes)>();
        foreach (var serializer in serializers)
        {
            var (size, problem) = Check(serializer, organization, expected, firstOfFamily);
            sizes[serializer.Name] = size;
            if (problem is not null)
            {
                problems.Add($"{serializer.Name}: {problem}");
            }

            log.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {serializer.Name,-26} {size,13:N0} bytes  {problem ?? "round trip exact"}"));
        }

        log.WriteLine($"Verified in {stopwatch.Elapsed.TotalSeconds:F1} s");
        return new PayloadCatalog(sizes, problems);
    }

    private static (long Size, string? Problem) Check(
        OrganizationSerializer serializer, Organization organization, string expected, Dictionary<ContenderFamily, (string Name, byte[] Bytes)> firstOfFamily)
    {
        long size = 0;
        try
        {
            var bytes = serializer.SerializeToArray(organization);
            size = bytes.Length;
            var measured = serializer.Serialize(organization);
            if (measured != bytes.Length)
            {
                return (size, $"the measured Serialize wrote {measured:N0} bytes, the payload has {bytes.Length:N0}");
            }

            if (serializer is CodecStreamingSerializer { MaxUnflushedBytes: var unflushed } && unflushed > CodecStreamingSerializer.UnflushedLimit)
            {
                return (size, $"the writer left {unflushed:N0} bytes unflushed at once (limit {CodecStreamingSerializer.UnflushedLimit:N0}): a pipe would hold them all");
            }

            // The first sound row of a format sets the bytes that the format's other rows must write.
            firstOfFamily.TryAdd(serializer.Family, (serializer.Name, bytes));
            var first = firstOfFamily[serializer.Family];
            if (!first.Bytes.AsSpan().SequenceEqual(bytes))
            {
                return (size, $"its bytes differ from {first.Name}'s");
            }

            var actual = OrganizationChecksum.Compute(serializer.Deserialize(new PreparedPayload(bytes)));
            if (actual != expected)
            {
                return (size, $"the round trip changed the content (checksum {actual[..16]}...)");
            }

            var summarized = serializer.Summarize(new PreparedPayload(bytes));
            return (size, summarized == expected ? null : $"its summary's checksum {summarized[..16]}... is not the content's");
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return (size, $"{e.GetType().Name}: {e.Message}");
        }
    }
}
