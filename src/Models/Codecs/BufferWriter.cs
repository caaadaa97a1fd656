using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// The byte writer under every format's writer (as MessagePack-CSharp's <c>BufferWriter</c> is under its
/// <c>MessagePackWriter</c>): it caches the span an <see cref="IBufferWriter{T}"/> handed out and advances the output
/// only when it needs a new span or is flushed. A caller reserves room with <see cref="Reserve"/> and then writes
/// without further capacity checks; positions from <see cref="Skip"/> stay valid until the next refill or flush.
/// Call <see cref="Flush"/> before the output is used by anyone else.
/// </summary>
internal ref struct BufferWriter
{
    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _buffered;
    private long _flushed;

    public BufferWriter(IBufferWriter<byte> output)
    {
        _output = output;
        _span = default;
    }

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _flushed + _buffered;

    /// <summary>Whether the next <paramref name="count"/> bytes fit in the cached span without a refill.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool HasRoom(long count) => _span.Length - _buffered >= count;

    /// <summary>Makes sure the next <paramref name="count"/> bytes fit in the cached span.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reserve(int count)
    {
        if ((uint)(_span.Length - _buffered) < (uint)count)
        {
            Refill(count);
        }
    }

    /// <summary>Reserves <paramref name="count"/> bytes and returns the unwritten part of the cached span; <see cref="Advance"/> commits what was written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> GetSpan(int count)
    {
        Reserve(count);
        return _span[_buffered..];
    }

    /// <summary>Counts <paramref name="count"/> bytes written into the span from <see cref="GetSpan"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count) => _buffered += count;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value) => _span[_buffered++] = value;

    /// <summary>Leaves one byte to be written later with <see cref="Patch"/> and returns its position.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Skip() => _buffered++;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void Patch(int position, byte value) => _span[position] = value;

    /// <summary>The bytes written from <paramref name="position"/> (a <see cref="Skip"/> result) on, and the unwritten rest of the span after them.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly Span<byte> From(int position) => _span[position..];

    /// <summary>The number of bytes written since <paramref name="position"/>, excluding the byte at it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly int LengthAfter(int position) => _buffered - position - 1;

    /// <summary>Unsigned LEB128 (<see cref="Leb128"/>), the varint of protobuf and of the binary format.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarint(ulong value)
    {
        if (value < 0x80)
        {
            _span[_buffered++] = (byte)value;
            return;
        }

        _buffered += Leb128.Write(_span[_buffered..], value);
    }

    /// <summary>8 bytes, little-endian.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUInt64LittleEndian(ulong value)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(_span[_buffered..], value);
        _buffered += sizeof(ulong);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(_span[_buffered..]);
        _buffered += bytes.Length;
    }

    /// <summary>
    /// The UTF-8 bytes of <paramref name="chars"/>, a lone surrogate as U+FFFD (as <see cref="System.Text.Encoding.UTF8"/>
    /// writes it), into room the caller reserved (3 bytes a char always suffice); returns the bytes written.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int WriteUtf8(ReadOnlySpan<char> chars)
    {
        var written = Utf8Transcoder.Write(chars, _span[_buffered..]);
        _buffered += written;
        return written;
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
            ThrowOutputTooSmall(count, _span.Length);
        }
    }

    [DoesNotReturn]
    private static void ThrowOutputTooSmall(int requested, int received) =>
        throw new InvalidOperationException($"The output returned a span of {received} bytes when asked for at least {requested}.");
}
