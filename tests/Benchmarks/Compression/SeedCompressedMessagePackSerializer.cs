using System.Buffers;
using System.IO.Compression;
using System.Runtime.InteropServices;
using WebSerialization.Benchmarks.Contenders;
using WebSerialization.Models;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Benchmarks.Compression;

/// <summary>
/// The seed's smallest row, MessagePack with <c>Lz4BlockArray</c>, as close as this registry allows: the same
/// MessagePack bytes (our spec-exact codec), cut into the 32 KB blocks MessagePack-CSharp's pooled scratch sequence
/// has, each block compressed on its own and wrapped in MessagePack-CSharp's <see cref="Lz4BlockArrayEnvelope"/>.
/// No LZ4 package can be restored (K4os.Compression.LZ4, the LZ4 MessagePack-CSharp uses, answers 404) and LZ4 is
/// not written by hand here, so each block is compressed with <see cref="BrotliEncoder"/> at its fastest quality:
/// general-purpose compression standing in for LZ4, which compresses less and runs faster than Brotli does.
/// </summary>
public sealed class SeedCompressedMessagePackSerializer : OrganizationSerializer
{
    /// <summary>Brotli's fastest quality (0..11).</summary>
    public const int BrotliQuality = 0;

    /// <summary>Brotli's default window (2^22 bytes); a 32 KB block never reaches it.</summary>
    public const int BrotliWindow = 22;

    // MessagePack-CSharp's SequencePool: segments of at least 32 KB (so that LZ4's worst case stays off the large
    // object heap), from a private ArrayPool.Create(80 * 1024, 100). It keeps at most 100 arrays of a size, so a
    // payload of thousands of blocks allocates most of them afresh, in the library as here.
    private const int BlockSize = 32 * 1024;
    private readonly ArrayPool<byte> _pool = ArrayPool<byte>.Create(80 * 1024, 100);

    public override string Name => "seed MessagePack+Brotli";

    public override string Description =>
        "Stand-in for the seed's MessagePack with `Lz4BlockArray`: our MessagePack bytes in 32 KB pooled blocks, each " +
        $"compressed with `BrotliEncoder` at quality {BrotliQuality} (its fastest), in MessagePack-CSharp's Lz4BlockArray " +
        "envelope `[ext 98 (uncompressed lengths), bin32 blocks...]`, `ToArray()`; back through `BrotliDecoder` into pooled " +
        "blocks and our MessagePack decoder. No LZ4 package can be restored here and LZ4 is not hand-written: this is " +
        "general-purpose compression in LZ4's place, smaller and slower than LZ4.";

    public override ContenderFamily Family => ContenderFamily.SeedCompressedMessagePack;

    public override byte[] SerializeToArray(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
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
            var span = output.GetSpan(Lz4BlockArrayEnvelope.Bin32HeaderLength + BrotliEncoder.GetMaxCompressedLength(block.Length));
            if (!BrotliEncoder.TryCompress(block.Span, span[Lz4BlockArrayEnvelope.Bin32HeaderLength..], out var written, BrotliQuality, BrotliWindow))
            {
                throw new InvalidOperationException("Brotli could not compress a block into its worst-case size.");
            }

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
                if (!BrotliDecoder.TryDecompress(bytes.Slice(offset, compressedLength), target, out var written) || written != lengths[i])
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
