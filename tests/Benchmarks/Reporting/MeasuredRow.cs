using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>One column of the seed-shaped table: a row's size and its two measured operations (null where not run).</summary>
public sealed record MeasuredRow(
    OrganizationSerializer Serializer,
    long? SizeBytes,
    double? SerializeMs,
    double? DeserializeMs,
    long? SerializeAllocatedBytes,
    long? DeserializeAllocatedBytes)
{
    public string Name => Serializer.Name;

    public ContenderFamily Family => Serializer.Family;
}
