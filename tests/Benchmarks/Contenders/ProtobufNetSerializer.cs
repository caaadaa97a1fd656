using ProtoBuf;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// protobuf-net's plain calls with the model's <c>[ProtoContract]</c>/<c>[ProtoMember]</c> contract, as the seed made
/// them: <c>Serializer.Serialize</c> into a <see cref="MemoryStream"/> (kept from call to call, as MessagePack-CSharp
/// keeps its pooled buffers), then <c>ToArray()</c>; <c>Serializer.Deserialize&lt;Organization&gt;</c> over the array.
/// </summary>
/// <remarks>
/// The row uses protobuf-net's stream path, as the seed did: its <c>Serialize(IBufferWriter&lt;byte&gt;, T)</c> is
/// several times slower for the whole organization (compare the two with <c>--repeat</c>).
/// </remarks>
public sealed class ProtobufNetSerializer : OrganizationSerializer
{
    private readonly MemoryStream _output = new();

    public override string Name => "protobuf-net byte[]";

    public override string Description =>
        "protobuf-net's plain calls, as the seed made them: `Serializer.Serialize(Stream, organization)` into a `MemoryStream` the row keeps from call to call, then `ToArray()`; `Serializer.Deserialize<Organization>(ReadOnlyMemory<byte>)`; with the model's `[ProtoContract]`/`[ProtoMember(n)]` attributes.";

    public override ContenderFamily Family => ContenderFamily.Protobuf;

    public override byte[] SerializeToArray(Organization organization)
    {
        var output = _output;
        output.SetLength(0);
        Serializer.Serialize(output, organization);
        return output.ToArray();
    }

    public override long Serialize(Organization organization) => SerializeToArray(organization).Length;

    public override Organization Deserialize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        return Serializer.Deserialize<Organization>(payload.Bytes.AsMemory());
    }
}
