using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>One column of the seed-shaped table: a row's size and its two measured operations (null where not run).</summary>
public sealed record MeasuredRow(OrganizationSerializer Serializer, long? SizeBytes, Measurement? Serialization, Measurement? Deserialization)
{
    public string Name => Serializer.Name;

    public ContenderFamily Family => Serializer.Family;

    /// <summary>The median serialization time: robust to the delays other work on a shared machine adds to some iterations.</summary>
    public double? SerializeMs => Serialization?.MedianMs;

    /// <summary>The median deserialization time.</summary>
    public double? DeserializeMs => Deserialization?.MedianMs;

    public long? SerializeAllocatedBytes => Serialization?.AllocatedBytesPerOperation;

    public long? DeserializeAllocatedBytes => Deserialization?.AllocatedBytesPerOperation;
}
