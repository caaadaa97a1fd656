namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The seed article's published numbers (Dotnet9, 2023-12-11, its own machine, .NET 8, one Stopwatch run per helper;
/// the allocations from its BenchmarkDotNet run of serialize + deserialize together). Quoted for reference: only
/// ratios measured within one run of ours are compared.
/// </summary>
public static class SeedArticle
{
    /// <summary>The seed's MessagePack with Lz4BlockArray payload, in bytes (36.91 MB), the size target.</summary>
    public const long MessagePackLz4Bytes = 38_706_475;

    /// <summary>The table's columns and rows, as published.</summary>
    public static IReadOnlyList<(string Column, double SizeMb, int SerializeMs, int DeserializeMs, double? AllocatedMb)> Table { get; } =
    [
        ("Json", 187.13, 2383, 3581, null),
        ("Custom Binary", 88.55, 983, 530, 1230.31),
        ("Binary (BinaryWriter)", 79.97, 1023, 632, 566.16),
        ("ProtoBuf (protobuf-net)", 84.72, 754, 1014, 581.66),
        ("MessagePack (Lz4BlockArray)", 36.91, 681, 986, 449.67),
    ];
}
