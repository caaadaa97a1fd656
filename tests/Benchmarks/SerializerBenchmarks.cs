using BenchmarkDotNet.Attributes;
using WebSerialization.Benchmarks.Contenders;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks;

/// <summary>
/// The seed article's table as one BenchmarkDotNet class: every row of <see cref="SerializerLineup"/> serializes the
/// same generated organization, and deserializes and summarizes a payload it made itself in setup. One operation is the whole
/// organization (1,000,000 members unless <see cref="BenchmarkSettings.MemberCountVariable"/> says otherwise).
/// </summary>
[MemoryDiagnoser]
public class SerializerBenchmarks
{
    private Organization? _organization;
    private PreparedPayload? _payload;

    /// <summary>The row being measured.</summary>
    [ParamsSource(nameof(Serializers))]
    public OrganizationSerializer Serializer { get; set; } = null!;

    /// <summary>The rows selected by <c>--rows</c> (all by default), in table order.</summary>
    public static IEnumerable<OrganizationSerializer> Serializers => SerializerLineup.Create().Where(row => BenchmarkSettings.IsSelected(row.Name));

    [GlobalSetup(Target = nameof(Serialize))]
    public void SetUpSerialize() => _organization = OrganizationGenerator.Create(BenchmarkSettings.MemberCount);

    [GlobalSetup(Targets = [nameof(Deserialize), nameof(Summarize)])]
    public void SetUpDeserialize()
    {
        // The payload is the input of the measured operation, made once by the row itself. The organization it came
        // from is dropped, so the collector walks only what the deserialization allocates, as in a server that
        // receives the payload.
        _payload = new PreparedPayload(Serializer.SerializeToArray(OrganizationGenerator.Create(BenchmarkSettings.MemberCount)));
        GC.Collect();
    }

    /// <summary>Serializes the organization; returns the payload's size so the work cannot be skipped.</summary>
    [Benchmark]
    [BenchmarkCategory("Serialize")]
    public long Serialize() => Serializer.Serialize(_organization!);

    /// <summary>
    /// Deserializes the payload; returns the member count, not the organization, so that the decoded members become
    /// garbage at once instead of living on through the next operation as a kept result would.
    /// </summary>
    [Benchmark]
    [BenchmarkCategory("Deserialize")]
    public int Deserialize() => Serializer.Deserialize(_payload!).Members?.Count ?? 0;

    /// <summary>Computes the payload's checksum as an upload's summary does (<see cref="OrganizationSerializer.Summarize"/>).</summary>
    [Benchmark]
    [BenchmarkCategory("Summarize")]
    public string Summarize() => Serializer.Summarize(_payload!);
}
