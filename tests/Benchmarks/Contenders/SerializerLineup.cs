using System.Text.Json;
using MessagePack;
using ProtoBuf;
using WebSerialization.Models.Binary;
using WebSerialization.Models.Json;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// The rows in table order: each format's library (the seed's own) beside our plain and streaming paths, the seed's
/// baselines, and the object model's floor.
/// </summary>
public static class SerializerLineup
{
    /// <summary>Fresh instances of every row (each benchmark process makes its own).</summary>
    public static IReadOnlyList<OrganizationSerializer> Create()
    {
        // Standard (trusted data) as the seed had it: the API's own decoder checks limits that UntrustedData would add.
        var messagePack = MessagePackSerializerOptions.Standard;
        var lz4 = MessagePackSerializerOptions.Standard.WithCompression(MessagePackCompression.Lz4BlockArray);

        // protobuf-net's stream path, as the seed used it (its IBufferWriter path is slower: see --repeat),
        // into a MemoryStream kept from call to call as MessagePack-CSharp keeps its pooled buffers.
        var protobufOutput = new MemoryStream();
        OrganizationSerializer[] rows =
        [
            new LibrarySerializer(
                "JSON byte[]", ContenderFamily.Json,
                "System.Text.Json's plain calls, as the seed made them: `JsonSerializer.SerializeToUtf8Bytes` and " +
                "`JsonSerializer.Deserialize(byte[])`, with the source-generated `ModelsJsonContext` (camelCase) where the seed " +
                "used reflection and PascalCase.",
                organization => JsonSerializer.SerializeToUtf8Bytes(organization, ModelsJsonContext.Default.Organization),
                bytes => JsonSerializer.Deserialize(bytes, ModelsJsonContext.Default.Organization) ?? throw new InvalidDataException("The JSON payload is null.")),
            new CodecStreamingSerializer(JsonCodec.Instance, "JSON stream", ContenderFamily.Json),
            new LibrarySerializer(
                "MessagePack-CSharp byte[]", ContenderFamily.MessagePack,
                "MessagePack-CSharp's plain calls: `MessagePackSerializer.Serialize(organization)` (its pooled buffers, then one exact-size `byte[]`) and `Deserialize<Organization>(byte[])`, with the model's `[MessagePackObject]`/`[Key(n)]` attributes; the same bytes as our MessagePack rows.",
                organization => MessagePackSerializer.Serialize(organization, messagePack),
                bytes => MessagePackSerializer.Deserialize<Organization>(bytes, messagePack)),
            new LibraryStreamSerializer(
                "MessagePack-CSharp Stream", ContenderFamily.MessagePack,
                "MessagePack-CSharp's `MessagePackSerializer.Serialize(Stream, organization)` and `Deserialize<Organization>(Stream)`",
                (stream, organization) => MessagePackSerializer.Serialize(stream, organization, messagePack),
                stream => MessagePackSerializer.Deserialize<Organization>(stream, messagePack)),
            new CodecByteArraySerializer(MessagePackCodec.Instance, "MessagePack byte[]", ContenderFamily.MessagePack),
            new CodecStreamingSerializer(MessagePackCodec.Instance, "MessagePack stream", ContenderFamily.MessagePack),
            new LibrarySerializer(
                "protobuf-net byte[]", ContenderFamily.Protobuf,
                "protobuf-net's plain calls, as the seed made them: `Serializer.Serialize(Stream, organization)` into a `MemoryStream` the row keeps from call to call, then `ToArray()`; `Serializer.Deserialize<Organization>(ReadOnlyMemory<byte>)`; with the model's `[ProtoContract]`/`[ProtoMember(n)]` attributes.",
                organization =>
                {
                    protobufOutput.SetLength(0);
                    Serializer.Serialize(protobufOutput, organization);
                    return protobufOutput.ToArray();
                },
                bytes => Serializer.Deserialize<Organization>(bytes.AsMemory())),
            new LibraryStreamSerializer(
                "protobuf-net Stream", ContenderFamily.Protobuf,
                "protobuf-net's `Serializer.Serialize(Stream, organization)` and `Serializer.Deserialize<Organization>(Stream)`",
                (stream, organization) => Serializer.Serialize(stream, organization),
                stream => Serializer.Deserialize<Organization>(stream)),
            new CodecByteArraySerializer(ProtobufCodec.Instance, "protobuf byte[]", ContenderFamily.Protobuf),
            new CodecStreamingSerializer(ProtobufCodec.Instance, "protobuf stream", ContenderFamily.Protobuf),
            new CodecByteArraySerializer(BinaryCodec.Instance, "Binary byte[]", ContenderFamily.Binary),
            new CodecStreamingSerializer(BinaryCodec.Instance, "Binary stream", ContenderFamily.Binary),
            new CodecStreamingSerializer(BinaryCodec.Instance, "Binary stream, 4 KB reads", ContenderFamily.Binary, CodecStreamingSerializer.KestrelSegmentSize),
            new SeedBinaryWriterSerializer(),
            new LibrarySerializer(
                "MessagePack-CSharp+LZ4", ContenderFamily.SeedCompressedMessagePack,
                $"The seed's smallest row with the seed's own library: MessagePack-CSharp with `MessagePackCompression.{MessagePackCompression.Lz4BlockArray}` (its built-in LZ4, over the blocks of its pooled sequence), `Serialize` to a `byte[]` and `Deserialize<Organization>(byte[])`.",
                organization => MessagePackSerializer.Serialize(organization, lz4),
                bytes => MessagePackSerializer.Deserialize<Organization>(bytes, lz4)),
            new ObjectModelFloor(),
        ];
        for (var i = 0; i < rows.Length; i++)
        {
            rows[i].Position = i;
        }

        return rows;
    }
}
