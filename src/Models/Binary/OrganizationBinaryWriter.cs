using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The hot-path byte writer of the binary format: it caches the span the <see cref="IBufferWriter{T}"/> handed out
/// and advances the output only when it needs a new span or is flushed. A caller reserves room with
/// <see cref="Reserve"/> once per member and then writes that member without further capacity checks.
/// </summary>
internal ref struct OrganizationBinaryWriter
{
    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _buffered;
    private long _flushed;

    public OrganizationBinaryWriter(IBufferWriter<byte> output)
    {
        _output = output;
        _span = default;
    }

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _flushed + _buffered;

    /// <summary>Makes sure the next <paramref name="count"/> bytes fit in the cached span.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reserve(int count)
    {
        if ((uint)(_span.Length - _buffered) < (uint)count)
        {
            Refill(count);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value) => _span[_buffered++] = value;

    /// <summary>varint32: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt32(uint value)
    {
        if (value < 0x80)
        {
            _span[_buffered++] = (byte)value;
            return;
        }

        WriteVarUInt64Slow(value);
    }

    /// <summary>varint64: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt64(ulong value)
    {
        if (value < 0x80)
        {
            _span[_buffered++] = (byte)value;
            return;
        }

        WriteVarUInt64Slow(value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteDouble(double value)
    {
        BinaryPrimitives.WriteDoubleLittleEndian(_span[_buffered..], value);
        _buffered += sizeof(double);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(_span[_buffered..]);
        _buffered += bytes.Length;
    }

    /// <summary>Hands the buffered bytes to the output.</summary>
    public void Flush()
    {
        if (_buffered > 0)
        {
            _output.Advance(_buffered);
            _flushed += _buffered;
            _buffered = 0;
        }

        _span = default;
    }

    private void WriteVarUInt64Slow(ulong value)
    {
        var span = _span;
        var position = _buffered;
        while (value >= 0x80)
        {
            span[position++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[position++] = (byte)value;
        _buffered = position;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Refill(int count)
    {
        Flush();
        _span = _output.GetSpan(count);
        if (_span.Length < count)
        {
            BinaryThrowHelper.ThrowOutputTooSmall(count, _span.Length);
        }
    }
}
