using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The hot-path byte reader of the binary format over one contiguous span. Every read returns false when the span
/// ends first (more bytes may still come), and throws <see cref="WireFormatException"/> when the bytes
/// already there break the spec, so that a bad varint fails as soon as it is seen rather than when it is complete.
/// </summary>
internal ref struct BinaryReader
{
    private readonly ReadOnlySpan<byte> _span;
    private readonly long _baseOffset;

    /// <summary>Creates a reader over <paramref name="span"/>, whose first byte is at <paramref name="baseOffset"/> in the payload.</summary>
    public BinaryReader(ReadOnlySpan<byte> span, long baseOffset)
    {
        _span = span;
        _baseOffset = baseOffset;
    }

    /// <summary>The index of the next byte in the span; set it back to undo reads.</summary>
    public int Position { get; set; }

    public readonly int Remaining => _span.Length - Position;

    /// <summary>The offset of the next byte in the payload, for error messages.</summary>
    public readonly long Offset => _baseOffset + Position;

    /// <summary>The bytes from the current position to the end of the span.</summary>
    public readonly ReadOnlySpan<byte> Unread => _span[Position..];

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadByte(out byte value)
    {
        var position = Position;
        if ((uint)position < (uint)_span.Length)
        {
            value = _span[position];
            Position = position + 1;
            return true;
        }

        value = 0;
        return false;
    }

    /// <summary>Reads <paramref name="count"/> bytes, which the caller has already checked against its limits.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadBytes(int count, out ReadOnlySpan<byte> bytes)
    {
        var position = Position;
        if ((uint)count <= (uint)(_span.Length - position))
        {
            bytes = _span.Slice(position, count);
            Position = position + count;
            return true;
        }

        bytes = default;
        return false;
    }

    /// <summary>float64: 8 bytes, the IEEE 754 binary64 bits in little-endian order, NaN payloads included.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadDouble(out double value)
    {
        var position = Position;
        if (_span.Length - position >= sizeof(double))
        {
            value = BinaryPrimitives.ReadDoubleLittleEndian(_span[position..]);
            Position = position + sizeof(double);
            return true;
        }

        value = 0;
        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadVarUInt32(out uint value)
    {
        var read = TryReadVarint(BinaryWire.MaxVarUInt32Bytes, BinaryWire.LastVarUInt32ByteMax, out var wide);
        value = (uint)wide;
        return read;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadVarUInt64(out ulong value) =>
        TryReadVarint(BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out value);

    // A varint that ends within the next 8 bytes is read from one 64-bit load (TryReadShortVarint). Anything else,
    // including every varint that breaks a rule, takes the byte-by-byte path, which knows where and why it fails.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadVarint(int maxBytes, byte lastByteMax, out ulong value)
    {
        var position = Position;
        if ((uint)position < (uint)_span.Length)
        {
            var first = _span[position];
            if (first < 0x80)
            {
                value = first;
                Position = position + 1;
                return true;
            }

            if (_span.Length - position >= sizeof(ulong)
                && TryReadShortVarint(ref MemoryMarshal.GetReference(_span), ref position, maxBytes, lastByteMax, out value))
            {
                Position = position;
                return true;
            }
        }

        return TryReadVarintSlow(maxBytes, lastByteMax, out value);
    }

    // "It is read back from the unsigned varint value z as (z >>> 1) ^ -(z & 1), where >>> is the logical shift".
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int UnZigZag(uint value) => (int)(value >> 1) ^ -(int)(value & 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static long UnZigZag(ulong value) => (long)(value >> 1) ^ -(long)(value & 1);

    // A varint that ends within the 8 bytes at bytes[at], which the caller guarantees are there, and keeps every rule of
    // the spec ("A varint32 takes at most 5 bytes, and its 5th byte may not exceed 0x0F", minimal form); false for
    // anything else, which the byte-by-byte path then rejects or accepts. Also the decoder's fast member loop's varint.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool TryReadShortVarint(ref byte bytes, ref int at, int maxBytes, byte lastByteMax, out ulong value)
    {
        var word = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref bytes, at));
        if ((word & 0x80) == 0)
        {
            value = word & 0x7F;
            at++;
            return true;
        }

        // The first byte without 0x80 is found in a mask, and the 7-bit groups are packed together by shifts.
        var ends = ~word & 0x8080_8080_8080_8080UL;
        var length = (BitOperations.TrailingZeroCount(ends) >> 3) + 1;
        var lastByte = (byte)(word >> (8 * (length - 1)));
        if (ends == 0 || lastByte == 0 || length > maxBytes || (length == maxBytes && lastByte > lastByteMax))
        {
            value = 0;
            return false;
        }

        value = PackGroups(word & (ulong.MaxValue >> (64 - (8 * length))));
        at += length;
        return true;
    }

    // Up to eight bytes of 7-bit groups, least significant first, packed into one number (continuation bits dropped).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong PackGroups(ulong bytes)
    {
        bytes &= 0x7F7F_7F7F_7F7F_7F7FUL;
        bytes = ((bytes & 0x7F00_7F00_7F00_7F00UL) >> 1) | (bytes & 0x007F_007F_007F_007FUL);
        bytes = ((bytes & 0x3FFF_0000_3FFF_0000UL) >> 2) | (bytes & 0x0000_3FFF_0000_3FFFUL);
        return ((bytes & 0x0FFF_FFFF_0000_0000UL) >> 4) | (bytes & 0x0000_0000_0FFF_FFFFUL);
    }

    // "A varint32 takes at most 5 bytes, and its 5th byte may not exceed 0x0F", "A varint64 takes at most 10 bytes, and
    // its 10th byte may not exceed 0x01", and "A varint of more than one byte may not end with 0x00".
    private bool TryReadVarintSlow(int maxBytes, byte lastByteMax, out ulong value)
    {
        var unread = _span[Position..];
        ulong result = 0;
        for (var index = 0; index < unread.Length; index++)
        {
            var current = unread[index];
            if (index == maxBytes - 1 && current > lastByteMax)
            {
                ThrowBadVarint(index, current, maxBytes == BinaryWire.MaxVarUInt32Bytes ? 32 : 64);
            }

            result |= (ulong)(current & 0x7F) << (7 * index);
            if (current < 0x80)
            {
                if (current == 0 && index > 0)
                {
                    ThrowNotMinimal(index);
                }

                value = result;
                Position += index + 1;
                return true;
            }
        }

        value = 0;
        return false;
    }

    private readonly void ThrowBadVarint(int index, byte last, int bits) =>
        BinaryThrowHelper.ThrowMalformed(
            Offset + index,
            last >= 0x80
                ? $"A varint{bits} runs past its {bits / 7 + 1} bytes (overlong)."
                : $"A varint{bits} overflows {bits} bits (last byte 0x{last:X2}).");

    private readonly void ThrowNotMinimal(int index) =>
        BinaryThrowHelper.ThrowMalformed(Offset + index, "A varint ends with a redundant 0x00 byte (not minimal).");
}
