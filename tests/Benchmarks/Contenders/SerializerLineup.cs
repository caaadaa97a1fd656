using WebSerialization.Benchmarks.Compression;
using WebSerialization.Models.Binary;
using WebSerialization.Models.Json;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// The rows of the benchmark, in the order of the tables: each format's plain and streaming paths, the seed's
/// baselines, and the object model's floor to measure them all against.
/// </summary>
public static class SerializerLineup
{
    /// <summary>Fresh instances of every row (each benchmark process makes its own).</summary>
    public static IReadOnlyList<OrganizationSerializer> Create()
    {
        OrganizationSerializer[] rows =
        [
            new JsonByteArraySerializer(),
            new CodecStreamingSerializer(JsonCodec.Instance, "JSON stream", ContenderFamily.Json),
            new CodecByteArraySerializer(MessagePackCodec.Instance, "MessagePack byte[]", ContenderFamily.MessagePack),
            new CodecStreamingSerializer(MessagePackCodec.Instance, "MessagePack stream", ContenderFamily.MessagePack),
            new CodecByteArraySerializer(ProtobufCodec.Instance, "protobuf byte[]", ContenderFamily.Protobuf),
            new CodecStreamingSerializer(ProtobufCodec.Instance, "protobuf stream", ContenderFamily.Protobuf),
            new CodecByteArraySerializer(BinaryCodec.Instance, "Binary byte[]", ContenderFamily.Binary),
            new CodecStreamingSerializer(BinaryCodec.Instance, "Binary stream", ContenderFamily.Binary),
            new KestrelReadsSerializer(BinaryCodec.Instance, "Binary stream, 4 KB reads", ContenderFamily.Binary),
            new SeedBinaryWriterSerializer(),
            new SeedCompressedMessagePackSerializer(),
            new ObjectModelFloor(),
        ];
        for (var i = 0; i < rows.Length; i++)
        {
            rows[i].Position = i;
        }

        return rows;
    }
}
