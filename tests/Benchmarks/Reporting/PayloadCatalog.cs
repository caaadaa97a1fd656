using System.Diagnostics;
using System.Globalization;
using WebSerialization.Benchmarks.Contenders;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// Checked before anything is measured, in the host process: every row round-trips the generated organization
/// exactly (same content checksum), its measured <c>Serialize</c> produces as many bytes as its payload has, a
/// streaming row never leaves more unflushed than a chunk and a batch (DiscardingPipeWriter.BufferSize), and the plain and streaming rows of a format produce the same bytes. Keeps each row's payload size for the size column.
/// </summary>
public sealed class PayloadCatalog
{
    private readonly Dictionary<string, long> _sizes = [];
    private readonly List<string> _problems = [];

    private PayloadCatalog(int memberCount) => MemberCount = memberCount;

    /// <summary>The members of the organization the sizes are for.</summary>
    public int MemberCount { get; }

    /// <summary>Payload bytes by row name.</summary>
    public IReadOnlyDictionary<string, long> Sizes => _sizes;

    /// <summary>What failed the checks; empty when every row is sound.</summary>
    public IReadOnlyList<string> Problems => _problems;

    /// <summary>Runs the checks on <paramref name="serializers"/>, writing one line per row to <paramref name="log"/>.</summary>
    public static PayloadCatalog Verify(IReadOnlyList<OrganizationSerializer> serializers, int memberCount, TextWriter log)
    {
        ArgumentNullException.ThrowIfNull(serializers);
        ArgumentNullException.ThrowIfNull(log);
        var catalog = new PayloadCatalog(memberCount);
        var stopwatch = Stopwatch.StartNew();
        var organization = OrganizationGenerator.Create(memberCount);
        var expected = OrganizationChecksum.Compute(organization);
        log.WriteLine($"Verifying {serializers.Count} rows on {memberCount:N0} members (checksum {expected[..16]}...)");

        var firstOfFamily = new Dictionary<ContenderFamily, (string Name, byte[] Bytes)>();
        foreach (var serializer in serializers)
        {
            var problem = Check(serializer, organization, expected, firstOfFamily, out var size);
            catalog._sizes[serializer.Name] = size;
            if (problem is not null)
            {
                catalog._problems.Add($"{serializer.Name}: {problem}");
            }

            log.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {serializer.Name,-26} {size,13:N0} bytes  {problem ?? "round trip exact"}"));
        }

        log.WriteLine($"Verified in {stopwatch.Elapsed.TotalSeconds:F1} s");
        return catalog;
    }

    private static string? Check(
        OrganizationSerializer serializer,
        Organization organization,
        string expected,
        Dictionary<ContenderFamily, (string Name, byte[] Bytes)> firstOfFamily,
        out long size)
    {
        size = 0;
        try
        {
            var bytes = serializer.SerializeToArray(organization);
            size = bytes.Length;
            var measured = serializer.Serialize(organization);
            if (measured != bytes.Length)
            {
                return $"the measured Serialize wrote {measured:N0} bytes, the payload has {bytes.Length:N0}";
            }

            if (serializer is CodecStreamingSerializer { MaxUnflushedBytes: var unflushed } && unflushed > CodecStreamingSerializer.UnflushedLimit)
            {
                return $"the writer left {unflushed:N0} bytes unflushed at once (limit {CodecStreamingSerializer.UnflushedLimit:N0}): a pipe would hold them all";
            }

            if (firstOfFamily.TryGetValue(serializer.Family, out var first))
            {
                if (!first.Bytes.AsSpan().SequenceEqual(bytes))
                {
                    return $"its bytes differ from {first.Name}'s";
                }
            }
            else
            {
                firstOfFamily[serializer.Family] = (serializer.Name, bytes);
            }

            var actual = OrganizationChecksum.Compute(serializer.Deserialize(new PreparedPayload(bytes)));
            if (actual != expected)
            {
                return $"the round trip changed the content (checksum {actual[..16]}...)";
            }

            var summarized = serializer.Summarize(new PreparedPayload(bytes));
            return summarized == expected ? null : $"its summary's checksum {summarized[..16]}... is not the content's";
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return $"{e.GetType().Name}: {e.Message}";
        }
    }
}
