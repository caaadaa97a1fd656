using BenchmarkDotNet.Attributes;

namespace WebSerialization.Benchmarks;

/// <summary>
/// The seed article's table as one BenchmarkDotNet class: every row of <see cref="SerializerLineup"/> serializes the
/// same generated organization, and deserializes and summarizes a payload it made itself in setup. One operation is
/// the whole organization (<see cref="BenchmarkCommandLine.BenchmarkMemberCount"/>).
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
        // The payload is the input of the measured operation, made once by the row itself. The organization it came
        // from is dropped, so the collector walks only what the deserialization allocates, as in a server that
        // receives the payload.
        _payload = new PreparedPayload(Serializer.SerializeToArray(OrganizationGenerator.Create(BenchmarkCommandLine.BenchmarkMemberCount)));
        GC.Collect();
    }

    /// <summary>Returns the payload's size so the work cannot be skipped.</summary>
    [Benchmark]
    [BenchmarkCategory("Serialize")]
    public long Serialize() => Serializer.Serialize(_organization!);

    /// <summary>
    /// Returns the member count, not the organization, so that the decoded members become garbage at once instead of
    /// living on through the next operation as a kept result would.
    /// </summary>
    [Benchmark]
    [BenchmarkCategory("Deserialize")]
    public int Deserialize() => Serializer.Deserialize(_payload!).Members?.Count ?? 0;

    /// <summary>The payload's checksum as an upload's summary computes it (<see cref="OrganizationSerializer.Summarize"/>).</summary>
    [Benchmark]
    [BenchmarkCategory("Summarize")]
    public string Summarize() => Serializer.Summarize(_payload!);
}
