using System.Buffers;
using System.Runtime.InteropServices;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// Our codec called the way a library's <c>Serialize(T) → byte[]</c> is: no pipe, no batching, no flushes.
/// </summary>
public sealed class CodecByteArraySerializer(IWireFormatCodec codec, string name, ContenderFamily family) : OrganizationSerializer(name, family,
    $"Our {FormatName(codec)} encoder writing all members in one call into an `ArrayBufferWriter<byte>` that the row keeps " +
    "from call to call (as the libraries pool theirs), then `ToArray()`, the one exact-size array a call allocates; our decoder over the whole array as one final block: " +
    "our codec called as the library's plain `byte[]` calls are.")
{
    // Kept from call to call, as the libraries keep their pooled buffers: a call costs the encoding and the one
    // exact-size array it returns, not a dozen regrowths of a new buffer.
    private readonly ArrayBufferWriter<byte> _output = new();

    public override byte[] SerializeToArray(Organization organization)
    {
        _output.ResetWrittenCount();
        var encoder = codec.CreateEncoder();
        encoder.WriteHeader(_output, organization, organization.Members?.Count ?? 0);
        encoder.WriteMembers(_output, CollectionsMarshal.AsSpan(organization.Members));
        encoder.WriteFooter(_output);
        return _output.WrittenSpan.ToArray();
    }

    public override Organization Deserialize(PreparedPayload payload)
    {
        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        decoder.Decode(new ReadOnlySequence<byte>(payload.Bytes), isFinalBlock: true);
        return decoder.GetResult();
    }
}
