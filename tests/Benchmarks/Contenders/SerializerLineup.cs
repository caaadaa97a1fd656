using MessagePack;
using ProtoBuf;
using WebSerialization.Models;
using WebSerialization.Models.Binary;
using WebSerialization.Models.Json;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// The rows of the benchmark, in the order of the tables: each format's library (the seed's own: System.Text.Json,
/// MessagePack-CSharp, protobuf-net) beside our plain and streaming paths, the seed's baselines, and the object model's
/// floor to measure them all against.
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
            new MessagePackCSharpSerializer("MessagePack-CSharp byte[]", MessagePackCompression.None, ContenderFamily.MessagePack),
            new LibraryStreamSerializer(
                "MessagePack-CSharp Stream",
                "MessagePack-CSharp's `MessagePackSerializer.Serialize(Stream, organization)` and `Deserialize<Organization>(Stream)`",
                ContenderFamily.MessagePack,
                (stream, organization) => MessagePackSerializer.Serialize(stream, organization, MessagePackSerializerOptions.Standard),
                stream => MessagePackSerializer.Deserialize<Organization>(stream, MessagePackSerializerOptions.Standard)),
            new CodecByteArraySerializer(MessagePackCodec.Instance, "MessagePack byte[]", ContenderFamily.MessagePack),
            new CodecStreamingSerializer(MessagePackCodec.Instance, "MessagePack stream", ContenderFamily.MessagePack),
            new ProtobufNetSerializer(),
            new LibraryStreamSerializer(
                "protobuf-net Stream",
                "protobuf-net's `Serializer.Serialize(Stream, organization)` and `Serializer.Deserialize<Organization>(Stream)`",
                ContenderFamily.Protobuf,
                (stream, organization) => Serializer.Serialize(stream, organization),
                stream => Serializer.Deserialize<Organization>(stream)),
            new CodecByteArraySerializer(ProtobufCodec.Instance, "protobuf byte[]", ContenderFamily.Protobuf),
            new CodecStreamingSerializer(ProtobufCodec.Instance, "protobuf stream", ContenderFamily.Protobuf),
            new CodecByteArraySerializer(BinaryCodec.Instance, "Binary byte[]", ContenderFamily.Binary),
            new CodecStreamingSerializer(BinaryCodec.Instance, "Binary stream", ContenderFamily.Binary),
            new KestrelReadsSerializer(BinaryCodec.Instance, "Binary stream, 4 KB reads", ContenderFamily.Binary),
            new SeedBinaryWriterSerializer(),
            new MessagePackCSharpSerializer("MessagePack-CSharp+LZ4", MessagePackCompression.Lz4BlockArray, ContenderFamily.SeedCompressedMessagePack),
            new ObjectModelFloor(),
        ];
        for (var i = 0; i < rows.Length; i++)
        {
            rows[i].Position = i;
        }

        return rows;
    }
}
