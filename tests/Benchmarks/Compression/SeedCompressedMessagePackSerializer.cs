using System.Buffers;
using System.Runtime.InteropServices;
using WebSerialization.Benchmarks.Contenders;
using WebSerialization.Models;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Benchmarks.Compression;

/// <summary>
/// The seed's smallest row, MessagePack with <c>Lz4BlockArray</c>, as MessagePack-CSharp writes it: the same
/// MessagePack bytes (our spec-exact codec, as MessagePack-CSharp itself cannot be restored), cut into the 32 KB
/// blocks MessagePack-CSharp's pooled scratch sequence has, each block compressed on its own by LZ4's fast
/// compressor (<see cref="LibLz4"/>, the reference liblz4 that K4os.Compression.LZ4 ports) and wrapped in
/// MessagePack-CSharp's <see cref="Lz4BlockArrayEnvelope"/>.
/// </summary>
public sealed class SeedCompressedMessagePackSerializer : OrganizationSerializer
{
    // MessagePack-CSharp's SequencePool: segments of at least 32 KB (so that LZ4's worst case stays off the large
    // object heap), from a private ArrayPool.Create(80 * 1024, 100). It keeps at most 100 arrays of a size, so a
    // payload of thousands of blocks allocates most of them afresh, in the library as here.
    private const int BlockSize = 32 * 1024;
    private readonly ArrayPool<byte> _pool = ArrayPool<byte>.Create(80 * 1024, 100);

    public override string Name => "seed MessagePack+LZ4";

    public override string Description =>
        "The seed's MessagePack with `Lz4BlockArray`: our MessagePack bytes in 32 KB pooled blocks, each compressed by " +
        $"`LZ4_compress_default` (liblz4 {LibLz4.VersionOrNotFound}, the reference LZ4 that MessagePack-CSharp's K4os.Compression.LZ4 " +
        "ports, at the same default level), in MessagePack-CSharp's Lz4BlockArray envelope `[ext 98 (uncompressed lengths), " +
        "bin32 blocks...]`, `ToArray()`; back through `LZ4_decompress_safe` into pooled blocks and our MessagePack decoder.";

    public override ContenderFamily Family => ContenderFamily.SeedCompressedMessagePack;

    public override byte[] SerializeToArray(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
        _ = LibLz4.Version; // loads the library once, or fails saying what to install
        using var uncompressed = new BlockBufferWriter(_pool, BlockSize);
        var encoder = MessagePackCodec.Instance.CreateEncoder();
        var members = organization.Members;
        encoder.WriteHeader(uncompressed, organization, members?.Count ?? 0);
        encoder.WriteMembers(uncompressed, CollectionsMarshal.AsSpan(members));
        encoder.WriteFooter(uncompressed);

        var blocks = uncompressed.Blocks();
        using var output = new BlockBufferWriter(_pool, BlockSize);
        var lengthsSize = 0;
        foreach (var block in blocks)
        {
            lengthsSize += Lz4BlockArrayEnvelope.UInt32Size((uint)block.Length);
        }

        Lz4BlockArrayEnvelope.WriteArrayHeader(output, (uint)blocks.Count + 1);
        Lz4BlockArrayEnvelope.WriteExtensionHeader(output, Lz4BlockArrayEnvelope.ExtensionType, (uint)lengthsSize);
        foreach (var block in blocks)
        {
            Lz4BlockArrayEnvelope.WriteUInt32(output, (uint)block.Length);
        }

        foreach (var block in blocks)
        {
            var maxLength = LibLz4.MaxCompressedLength(block.Length);
            var span = output.GetSpan(Lz4BlockArrayEnvelope.Bin32HeaderLength + maxLength);
            var written = LibLz4.Compress(block.Span, span.Slice(Lz4BlockArrayEnvelope.Bin32HeaderLength, maxLength));
            Lz4BlockArrayEnvelope.WriteBin32Header(span, (uint)written);
            output.Advance(Lz4BlockArrayEnvelope.Bin32HeaderLength + written);
        }

        return output.ToArray();
    }

    public override long Serialize(Organization organization) => SerializeToArray(organization).Length;

    public override Organization Deserialize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        var bytes = payload.Bytes.AsSpan();
        var offset = 0;
        var blockCount = (int)Lz4BlockArrayEnvelope.ReadArrayHeader(bytes, ref offset) - 1;
        var lengthsSize = Lz4BlockArrayEnvelope.ReadExtensionHeader(bytes, ref offset, out var type);
        if (type != Lz4BlockArrayEnvelope.ExtensionType || blockCount < 0)
        {
            throw new InvalidDataException($"Not an Lz4BlockArray envelope (extension type {type}, {blockCount} blocks).");
        }

        var lengthsEnd = offset + (int)lengthsSize;
        var lengths = ArrayPool<int>.Shared.Rent(blockCount);
        using var uncompressed = new BlockBufferWriter(_pool, BlockSize);
        try
        {
            for (var i = 0; i < blockCount; i++)
            {
                lengths[i] = (int)Lz4BlockArrayEnvelope.ReadUInt32(bytes, ref offset);
            }

            if (offset != lengthsEnd)
            {
                throw new InvalidDataException("The Lz4BlockArray lengths do not fill their extension.");
            }

            for (var i = 0; i < blockCount; i++)
            {
                var compressedLength = (int)Lz4BlockArrayEnvelope.ReadBinHeader(bytes, ref offset);
                var target = uncompressed.GetSpan(lengths[i])[..lengths[i]];
                var written = LibLz4.Decompress(bytes.Slice(offset, compressedLength), target);
                if (written != lengths[i])
                {
                    throw new InvalidDataException($"Block {i} does not decompress to its {lengths[i]} bytes.");
                }

                uncompressed.Advance(written);
                offset += compressedLength;
            }
        }
        finally
        {
            ArrayPool<int>.Shared.Return(lengths);
        }

        var decoder = MessagePackCodec.Instance.CreateDecoder(DecodeLimits.Default);
        decoder.Decode(uncompressed.ToSequence(), isFinalBlock: true);
        return decoder.GetResult();
    }
}
