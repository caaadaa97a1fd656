using System.Buffers;
using ProtoBuf;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// protobuf-net's plain calls with the model's <c>[ProtoContract]</c>/<c>[ProtoMember]</c> contract:
/// <c>Serializer.Serialize</c> into an <see cref="ArrayBufferWriter{T}"/> the row keeps from call to call (as
/// MessagePack-CSharp keeps its pooled buffers), then <c>ToArray()</c>; <c>Serializer.Deserialize&lt;Organization&gt;</c>
/// over the array.
/// </summary>
public sealed class ProtobufNetSerializer : OrganizationSerializer
{
    private readonly ArrayBufferWriter<byte> _output = new();

    public override string Name => "protobuf-net byte[]";

    public override string Description =>
        "protobuf-net's plain calls: `Serializer.Serialize(IBufferWriter<byte>, organization)` into a buffer the row keeps from call to call, then one exact-size `byte[]`; `Serializer.Deserialize<Organization>(ReadOnlyMemory<byte>)`; with the model's `[ProtoContract]`/`[ProtoMember(n)]` attributes (the seed wrote to a `MemoryStream`).";

    public override ContenderFamily Family => ContenderFamily.Protobuf;

    public override byte[] SerializeToArray(Organization organization)
    {
        var output = _output;
        output.ResetWrittenCount();
        Serializer.Serialize(output, organization);
        return output.WrittenSpan.ToArray();
    }

    public override long Serialize(Organization organization) => SerializeToArray(organization).Length;

    public override Organization Deserialize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        return Serializer.Deserialize<Organization>(payload.Bytes.AsMemory());
    }
}
