using BenchmarkDotNet.Attributes;

namespace WebSerialization.Benchmarks;

/// <summary>
/// The seed article's table as one BenchmarkDotNet class over every row of <see cref="SerializerLineup"/>; one
/// operation is the whole organization.
/// </summary>
[MemoryDiagnoser]
public class SerializerBenchmarks
{
    private Organization? _organization;
    private PreparedPayload? _payload;

    [ParamsSource(nameof(Serializers))]
    public OrganizationSerializer Serializer { get; set; } = null!;

    /// <summary>The rows selected by <c>--rows</c> (all by default), in table order.</summary>
    public static IEnumerable<OrganizationSerializer> Serializers => SerializerLineup.Create().Where(row => BenchmarkCommandLine.IsSelected(row.Name));

    [GlobalSetup(Target = nameof(Serialize))]
    public void SetUpSerialize() => _organization = OrganizationGenerator.Create(BenchmarkCommandLine.BenchmarkMemberCount);

    [GlobalSetup(Targets = [nameof(Deserialize), nameof(Summarize)])]
    public void SetUpDeserialize()
    {
        // The row makes its own payload. The organization it came from is dropped, so the collector walks only what the
        // deserialization allocates, as in a server that receives the payload.
        _payload = new PreparedPayload(Serializer.SerializeToArray(OrganizationGenerator.Create(BenchmarkCommandLine.BenchmarkMemberCount)));
        GC.Collect();
    }

    /// <summary>Returns the payload's size so the work cannot be skipped.</summary>
    [Benchmark]
    [BenchmarkCategory("Serialize")]
    public long Serialize() => Serializer.Serialize(_organization!);

    /// <summary>Returns the member count, not the organization, so the decoded members become garbage at once.</summary>
    [Benchmark]
    [BenchmarkCategory("Deserialize")]
    public int Deserialize() => Serializer.Deserialize(_payload!).Members?.Count ?? 0;

    /// <summary>The payload's checksum as an upload's summary computes it (<see cref="OrganizationSerializer.Summarize"/>).</summary>
    [Benchmark]
    [BenchmarkCategory("Summarize")]
    public string Summarize() => Serializer.Summarize(_payload!);
}
