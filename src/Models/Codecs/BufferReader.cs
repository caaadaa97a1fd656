using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// The byte reader under every span format's decoder, the twin of <see cref="BufferWriter"/>: a ref struct over the
/// contiguous bytes received so far, whose first byte is at a known offset in the payload. Every <c>TryRead</c> returns
/// false, having moved nothing, when the bytes end first (more may still come), and throws through
/// <see cref="WireFormatThrow"/> when the bytes already there break a rule, so a bad varint fails as soon as it is seen.
/// A decoder reads a whole unit (a member, a tag) and sets <see cref="Position"/> back to the unit's start when a read
/// says the unit is not all there; <see cref="OrganizationDecoder"/> then offers it again with more bytes.
/// </summary>
internal ref struct BufferReader
{
    private readonly ReadOnlySpan<byte> _span;
    private readonly long _baseOffset;

    /// <summary>Creates a reader over <paramref name="span"/>, whose first byte is at <paramref name="baseOffset"/> in the payload.</summary>
    public BufferReader(ReadOnlySpan<byte> span, long baseOffset)
    {
        _span = span;
        _baseOffset = baseOffset;
    }

    /// <summary>The index of the next byte in the span; set it back to undo reads.</summary>
    public int Position { get; set; }

    /// <summary>The bytes left in the span.</summary>
    public readonly int Remaining => _span.Length - Position;

    /// <summary>The offset of the next byte in the payload, for error messages.</summary>
    public readonly long Offset => _baseOffset + Position;

    /// <summary>The offset in the payload of the byte at <paramref name="position"/> of the span.</summary>
    public readonly long OffsetOf(int position) => _baseOffset + position;

    /// <summary>The bytes from the current position to the end of the span.</summary>
    public readonly ReadOnlySpan<byte> Unread => _span[Position..];

    /// <summary>The whole span, for a member loop that reads it with positions of its own.</summary>
    public readonly ReadOnlySpan<byte> Span => _span;

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

    /// <summary>Reads <paramref name="count"/> bytes, which the caller has already held to its limits.</summary>
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

    /// <summary>Steps over <paramref name="count"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TrySkip(ulong count)
    {
        if (count <= (ulong)(_span.Length - Position))
        {
            Position += (int)count;
            return true;
        }

        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt16BigEndian(out ushort value)
    {
        var position = Position;
        if (_span.Length - position >= sizeof(ushort))
        {
            value = BinaryPrimitives.ReadUInt16BigEndian(_span[position..]);
            Position = position + sizeof(ushort);
            return true;
        }

        value = 0;
        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt32BigEndian(out uint value)
    {
        var position = Position;
        if (_span.Length - position >= sizeof(uint))
        {
            value = BinaryPrimitives.ReadUInt32BigEndian(_span[position..]);
            Position = position + sizeof(uint);
            return true;
        }

        value = 0;
        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt64BigEndian(out ulong value)
    {
        var position = Position;
        if (_span.Length - position >= sizeof(ulong))
        {
            value = BinaryPrimitives.ReadUInt64BigEndian(_span[position..]);
            Position = position + sizeof(ulong);
            return true;
        }

        value = 0;
        return false;
    }

    /// <summary>8 bytes, little-endian (protobuf's fixed64, the binary format's float64).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt64LittleEndian(out ulong value)
    {
        var position = Position;
        if (_span.Length - position >= sizeof(ulong))
        {
            value = BinaryPrimitives.ReadUInt64LittleEndian(_span[position..]);
            Position = position + sizeof(ulong);
            return true;
        }

        value = 0;
        return false;
    }

    /// <summary>4 bytes, little-endian (protobuf's fixed32).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt32LittleEndian(out uint value)
    {
        var position = Position;
        if (_span.Length - position >= sizeof(uint))
        {
            value = BinaryPrimitives.ReadUInt32LittleEndian(_span[position..]);
            Position = position + sizeof(uint);
            return true;
        }

        value = 0;
        return false;
    }

    /// <summary>
    /// An unsigned LEB128 varint of at most <paramref name="maxBytes"/> bytes whose last byte may not exceed
    /// <paramref name="lastByteMax"/> (so that it fits the target width); with <paramref name="minimal"/>, one of more
    /// than one byte may not end with 0x00. A varint that ends within the next 8 bytes is read from one 64-bit load
    /// (<see cref="Leb128.TryReadShort"/>); anything else, including every varint that breaks a rule, takes the
    /// byte-by-byte path, which knows where and why it fails.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadVarint(int maxBytes, byte lastByteMax, bool minimal, out ulong value)
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
                && Leb128.TryReadShort(ref MemoryMarshal.GetReference(_span), ref position, maxBytes, lastByteMax, out value))
            {
                Position = position;
                return true;
            }
        }

        return TryReadVarintSlow(maxBytes, lastByteMax, minimal, out value);
    }

    /// <summary>A protobuf varint: up to 10 bytes, the 10th holding the 64th bit only, padding with 0x80 allowed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadVarint64(out ulong value) =>
        TryReadVarint(Leb128.MaxBytes64, Leb128.LastByteMax64, minimal: false, out value);

    private bool TryReadVarintSlow(int maxBytes, byte lastByteMax, bool minimal, out ulong value)
    {
        var unread = _span[Position..];
        ulong result = 0;
        for (var index = 0; index < unread.Length; index++)
        {
            var current = unread[index];
            if (index == maxBytes - 1 && current > lastByteMax)
            {
                ThrowBadVarint(index, current, maxBytes);
            }

            result |= (ulong)(current & 0x7F) << (7 * index);
            if (current < 0x80)
            {
                if (minimal && current == 0 && index > 0)
                {
                    WireFormatThrow.Malformed(Offset + index, "A varint ends with a redundant 0x00 byte (not minimal).");
                }

                value = result;
                Position += index + 1;
                return true;
            }
        }

        value = 0;
        return false;
    }

    private readonly void ThrowBadVarint(int index, byte last, int maxBytes)
    {
        var bits = maxBytes == Leb128.MaxBytes32 ? 32 : 64;
        WireFormatThrow.Malformed(
            Offset + index,
            last >= 0x80
                ? $"A varint{bits} runs past its {maxBytes} bytes (overlong)."
                : $"A varint{bits} overflows {bits} bits (last byte 0x{last:X2}).");
    }
}
