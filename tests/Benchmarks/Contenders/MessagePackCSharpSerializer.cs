using MessagePack;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// MessagePack-CSharp's plain calls, as the seed made them: <c>MessagePackSerializer.Serialize(organization)</c> to a
/// <c>byte[]</c> and <c>Deserialize&lt;Organization&gt;(byte[])</c>, with the model's <c>[MessagePackObject]</c>/<c>[Key]</c>
/// contract, and optionally the seed's <see cref="MessagePackCompression.Lz4BlockArray"/>.
/// </summary>
public sealed class MessagePackCSharpSerializer(string name, MessagePackCompression compression, ContenderFamily family) : OrganizationSerializer
{
    // Standard (trusted data) as the seed had it: the API's own decoder checks limits that UntrustedData would add.
    private readonly MessagePackSerializerOptions _options = MessagePackSerializerOptions.Standard.WithCompression(compression);

    public override string Name => name;

    public override string Description => compression == MessagePackCompression.None
        ? "MessagePack-CSharp's plain calls: `MessagePackSerializer.Serialize(organization)` (its pooled buffers, then one exact-size `byte[]`) and `Deserialize<Organization>(byte[])`, with the model's `[MessagePackObject]`/`[Key(n)]` attributes; the same bytes as our MessagePack rows."
        : $"The seed's smallest row with the seed's own library: MessagePack-CSharp with `MessagePackCompression.{compression}` (its built-in LZ4, over the blocks of its pooled sequence), `Serialize` to a `byte[]` and `Deserialize<Organization>(byte[])`.";

    public override ContenderFamily Family => family;

    public override byte[] SerializeToArray(Organization organization) => MessagePackSerializer.Serialize(organization, _options);

    public override long Serialize(Organization organization) => SerializeToArray(organization).Length;

    public override Organization Deserialize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        return MessagePackSerializer.Deserialize<Organization>(payload.Bytes, _options);
    }
}
