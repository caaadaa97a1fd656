using System.Buffers;
using System.Buffers.Binary;

namespace WebSerialization.Benchmarks.Compression;

/// <summary>
/// The MessagePack envelope of MessagePack-CSharp's <c>MessagePackCompression.Lz4BlockArray</c>, as its
/// <c>ToLZ4BinaryCore</c> writes it:
/// <c>[ext(98, [uint uncompressedLength...]), bin32 block, bin32 block, ...]</c>, an array of one more element than
/// there are blocks, whose first element is an extension of type 98 holding each block's uncompressed length as a
/// MessagePack integer, followed by each compressed block as a bin 32. Only the block codec differs here (see
/// <see cref="SeedCompressedMessagePackSerializer"/>).
/// </summary>
internal static class Lz4BlockArrayEnvelope
{
    /// <summary>The extension type code MessagePack-CSharp reserves for Lz4BlockArray.</summary>
    public const sbyte ExtensionType = 98;

    /// <summary>Bytes of a bin 32 header: 0xc6 and a big-endian uint32 length.</summary>
    public const int Bin32HeaderLength = 5;

    // MessagePack format codes (https://github.com/msgpack/msgpack/blob/master/spec.md).
    private const byte MaxPositiveFixInt = 0x7f;
    private const byte FixArrayPrefix = 0x90;
    private const byte MaxFixArrayCount = 0x0f;
    private const byte LastFixArray = 0x9f;
    private const byte Bin8 = 0xc4;
    private const byte Bin16 = 0xc5;
    private const byte Bin32 = 0xc6;
    private const byte Ext8 = 0xc7;
    private const byte Ext16 = 0xc8;
    private const byte Ext32 = 0xc9;
    private const byte UInt8 = 0xcc;
    private const byte UInt16 = 0xcd;
    private const byte UInt32 = 0xce;
    private const byte FixExt1 = 0xd4;
    private const byte FixExt2 = 0xd5;
    private const byte FixExt4 = 0xd6;
    private const byte FixExt8 = 0xd7;
    private const byte FixExt16 = 0xd8;
    private const byte Array16 = 0xdc;
    private const byte Array32 = 0xdd;

    /// <summary>Bytes <see cref="WriteUInt32"/> takes for <paramref name="value"/> (MessagePack-CSharp's GetUInt32WriteSize).</summary>
    public static int UInt32Size(uint value) => value <= MaxPositiveFixInt ? 1 : value <= byte.MaxValue ? 2 : value <= ushort.MaxValue ? 3 : 5;

    public static void WriteArrayHeader(IBufferWriter<byte> output, uint count)
    {
        var span = output.GetSpan(5);
        if (count <= MaxFixArrayCount)
        {
            span[0] = (byte)(FixArrayPrefix | count);
            output.Advance(1);
        }
        else if (count <= ushort.MaxValue)
        {
            span[0] = Array16;
            BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)count);
            output.Advance(3);
        }
        else
        {
            span[0] = Array32;
            BinaryPrimitives.WriteUInt32BigEndian(span[1..], count);
            output.Advance(5);
        }
    }

    /// <summary>An extension header as MessagePackWriter.WriteExtensionFormatHeader chooses it: fixext for 1, 2, 4, 8, 16 bytes.</summary>
    public static void WriteExtensionHeader(IBufferWriter<byte> output, sbyte type, uint length)
    {
        var span = output.GetSpan(6);
        int written;
        switch (length)
        {
            case 1: span[0] = FixExt1; written = 1; break;
            case 2: span[0] = FixExt2; written = 1; break;
            case 4: span[0] = FixExt4; written = 1; break;
            case 8: span[0] = FixExt8; written = 1; break;
            case 16: span[0] = FixExt16; written = 1; break;
            case <= byte.MaxValue: span[0] = Ext8; span[1] = (byte)length; written = 2; break;
            case <= ushort.MaxValue: span[0] = Ext16; BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)length); written = 3; break;
            default: span[0] = Ext32; BinaryPrimitives.WriteUInt32BigEndian(span[1..], length); written = 5; break;
        }

        span[written] = unchecked((byte)type);
        output.Advance(written + 1);
    }

    public static void WriteUInt32(IBufferWriter<byte> output, uint value)
    {
        var span = output.GetSpan(5);
        switch (UInt32Size(value))
        {
            case 1: span[0] = (byte)value; output.Advance(1); break;
            case 2: span[0] = UInt8; span[1] = (byte)value; output.Advance(2); break;
            case 3: span[0] = UInt16; BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)value); output.Advance(3); break;
            default: span[0] = UInt32; BinaryPrimitives.WriteUInt32BigEndian(span[1..], value); output.Advance(5); break;
        }
    }

    /// <summary>Writes a bin 32 header into the first <see cref="Bin32HeaderLength"/> bytes of <paramref name="span"/>.</summary>
    public static void WriteBin32Header(Span<byte> span, uint length)
    {
        span[0] = Bin32;
        BinaryPrimitives.WriteUInt32BigEndian(span[1..], length);
    }

    public static uint ReadArrayHeader(ReadOnlySpan<byte> payload, ref int offset)
    {
        var code = payload[offset++];
        switch (code)
        {
            case >= FixArrayPrefix and <= LastFixArray: return (uint)(code & MaxFixArrayCount);
            case Array16: return ReadUInt16(payload, ref offset);
            case Array32: return ReadUInt32BigEndian(payload, ref offset);
            default: throw Unexpected(code, offset - 1, "an array header");
        }
    }

    public static uint ReadExtensionHeader(ReadOnlySpan<byte> payload, ref int offset, out sbyte type)
    {
        var code = payload[offset++];
        uint length = code switch
        {
            FixExt1 => 1,
            FixExt2 => 2,
            FixExt4 => 4,
            FixExt8 => 8,
            FixExt16 => 16,
            Ext8 => payload[offset++],
            Ext16 => ReadUInt16(payload, ref offset),
            Ext32 => ReadUInt32BigEndian(payload, ref offset),
            _ => throw Unexpected(code, offset - 1, "an extension header"),
        };
        type = unchecked((sbyte)payload[offset++]);
        return length;
    }

    public static uint ReadUInt32(ReadOnlySpan<byte> payload, ref int offset)
    {
        var code = payload[offset++];
        return code switch
        {
            <= MaxPositiveFixInt => code,
            UInt8 => payload[offset++],
            UInt16 => ReadUInt16(payload, ref offset),
            UInt32 => ReadUInt32BigEndian(payload, ref offset),
            _ => throw Unexpected(code, offset - 1, "a non-negative integer"),
        };
    }

    public static uint ReadBinHeader(ReadOnlySpan<byte> payload, ref int offset)
    {
        var code = payload[offset++];
        return code switch
        {
            Bin8 => payload[offset++],
            Bin16 => ReadUInt16(payload, ref offset),
            Bin32 => ReadUInt32BigEndian(payload, ref offset),
            _ => throw Unexpected(code, offset - 1, "a bin header"),
        };
    }

    private static ushort ReadUInt16(ReadOnlySpan<byte> payload, ref int offset)
    {
        var value = BinaryPrimitives.ReadUInt16BigEndian(payload[offset..]);
        offset += 2;
        return value;
    }

    private static uint ReadUInt32BigEndian(ReadOnlySpan<byte> payload, ref int offset)
    {
        var value = BinaryPrimitives.ReadUInt32BigEndian(payload[offset..]);
        offset += 4;
        return value;
    }

    private static InvalidDataException Unexpected(byte code, int offset, string expected) =>
        new($"Expected {expected} at offset {offset}, found 0x{code:x2}.");
}
