namespace WebSerialization.Load.Reports;

/// <summary>The seed article's numbers for the same format (shared/seeds/000_7379c1663ebc6f11.txt): a console app serializing
/// its 1,000,000-member Organization to one <c>byte[]</c> in memory, timed once with a Stopwatch, no HTTP. They are
/// beside ours for scale, not as a like-for-like comparison.</summary>
/// <param name="SizeMegabytes">The byte[]'s size, MB of 2^20 bytes.</param>
public sealed record SeedArticleFigures(string Serializer, double SizeMegabytes, double SerializeMilliseconds)
{
    public const int MemberCount = 1_000_000;

    public static SeedArticleFigures For(WireFormat format) => format.Key switch
    {
        "json" => new("System.Text.Json", 187.13, 2383),
        "msgpack" => new("MessagePack-CSharp + LZ4BlockArray", 36.91, 681),
        "protobuf" => new("protobuf-net", 84.72, 754),
        _ => new("custom byte[] concatenation", 88.55, 983),
    };

    public const string Caption =
        "Seed columns: the seed article's console-app figures (one byte[] serialized in memory, 1,000,000 members, no HTTP): "
        + "JSON = System.Text.Json, MessagePack = MessagePack-CSharp with LZ4BlockArray compression (ours is uncompressed; the seed's "
        + "contractless run, also with LZ4, was 41.56 MB, 917 ms), protobuf = protobuf-net, binary = the seed's custom byte[] format (its BinaryWriter "
        + "variant: 79.97 MB, 1023 ms). Shown on 1,000,000-member rows only.";
}
