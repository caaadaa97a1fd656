namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The seed article's published table (one Stopwatch run per helper on the author's machine, .NET 8; the allocations
/// from its BenchmarkDotNet run of serialize and deserialize together), shown beside our rows for reference: only
/// ratios within one of our runs are judged.
/// </summary>
public static class SeedArticle
{
    /// <summary>The article's rows, as published.</summary>
    public static IReadOnlyList<(string Row, double SizeMb, int SerializeMs, int DeserializeMs, double? AllocatedMb)> Table { get; } =
    [
        ("Json", 187.13, 2383, 3581, null),
        ("Custom Binary", 88.55, 983, 530, 1230.31),
        ("Binary (BinaryWriter)", 79.97, 1023, 632, 566.16),
        ("ProtoBuf (protobuf-net)", 84.72, 754, 1014, 581.66),
        ("MessagePack (Lz4BlockArray)", 36.91, 681, 986, 449.67),
    ];
}
