using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Unicode;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The hot-path byte writer of the binary format: it caches the span the <see cref="IBufferWriter{T}"/> handed out
/// and advances the output only when it needs a new span or is flushed. A caller reserves room with
/// <see cref="Reserve"/> once per member and then writes that member without further capacity checks.
/// </summary>
internal ref struct BinaryWriter
{
    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _buffered;
    private long _flushed;

    public BinaryWriter(IBufferWriter<byte> output)
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

    /// <summary>Whether the next <paramref name="count"/> bytes fit in the cached span without a refill.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool HasRoom(long count) => _span.Length - _buffered >= count;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value) => _span[_buffered++] = value;

    /// <summary>
    /// Leaves one byte to be written later with <see cref="PatchByte"/> and returns its position, which stays valid
    /// until the next <see cref="Reserve"/> or <see cref="Flush"/>: only those move to another span.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int SkipByte() => _buffered++;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void PatchByte(int position, byte value) => _span[position] = value;

    /// <summary>varint32: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt32(uint value) => WriteVarUInt64(value);

    /// <summary>varint64: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt64(ulong value)
    {
        if (value < 0x80)
        {
            _span[_buffered++] = (byte)value;
            return;
        }

        _buffered += Leb128.Write(_span[_buffered..], value);
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

    /// <summary>
    /// Writes <paramref name="chars"/> as UTF-8, which the caller measured as <paramref name="byteCount"/> bytes with
    /// <see cref="System.Text.Encoding.UTF8"/>; both write a lone surrogate as U+FFFD, so the two always agree.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUtf8(ReadOnlySpan<char> chars, int byteCount)
    {
        Utf8.FromUtf16(chars, _span.Slice(_buffered, byteCount), out _, out var written, replaceInvalidSequences: true);
        Debug.Assert(written == byteCount, "Encoding.UTF8 and Utf8.FromUtf16 measured the text differently.");
        _buffered += byteCount;
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
