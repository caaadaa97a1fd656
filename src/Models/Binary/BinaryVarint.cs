using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The varints of Encodings in docs/binary-format.md, read with <see cref="BufferReader"/>: "A varint32 takes at most 5
/// bytes, and its 5th byte may not exceed 0x0F", "A varint64 takes at most 10 bytes, and its 10th byte may not exceed
/// 0x01", and "A varint of more than one byte may not end with 0x00"; and zigzag, which signed values go through.
/// </summary>
internal static class BinaryVarint
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadUInt32(ref BufferReader reader, out uint value)
    {
        var read = reader.TryReadVarint(BinaryWire.MaxVarUInt32Bytes, BinaryWire.LastVarUInt32ByteMax, minimal: true, out var wide);
        value = (uint)wide;
        return read;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadUInt64(ref BufferReader reader, out ulong value) =>
        reader.TryReadVarint(BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, minimal: true, out value);

    // "It is read back from the unsigned varint value z as (z >>> 1) ^ -(z & 1), where >>> is the logical shift".
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int UnZigZag(uint value) => (int)(value >> 1) ^ -(int)(value & 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long UnZigZag(ulong value) => (long)(value >> 1) ^ -(long)(value & 1);
}
