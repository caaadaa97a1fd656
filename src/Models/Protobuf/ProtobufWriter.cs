using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text.Unicode;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Writes protobuf fields into an <see cref="IBufferWriter{T}"/>, caching the output's current span and advancing the
/// output only when it needs a new span or is flushed. A caller reserves room with <see cref="Reserve"/> and then
/// writes without further capacity checks. A length-delimited field is written before its length is known: one byte
/// is left for the length, which fits every string and member under 128 bytes, and the field is slid along in the
/// rare case its length needs more. So a string is read once, by the transcoder, not also counted first.
/// </summary>
internal ref struct ProtobufWriter
{
    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _buffered;
    private long _flushed;

    public ProtobufWriter(IBufferWriter<byte> output)
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

    /// <summary>A tag that takes one byte, as every tag of this schema does.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteRawTag(byte tag) => _span[_buffered++] = tag;

    /// <summary>A varint: int32 and int64 values go as their 64-bit two's complement, so negatives take 10 bytes.</summary>
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

    /// <summary>fixed64: 8 bytes, little-endian.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteFixed64(ulong value)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(_span[_buffered..], value);
        _buffered += sizeof(ulong);
    }

    /// <summary>Leaves room for a length-delimited field's length; pass the result to <see cref="EndLengthDelimited"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int BeginLengthDelimited() => _buffered++;

    /// <summary>Writes the length of the field begun at <paramref name="lengthPosition"/>, which ends here.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndLengthDelimited(int lengthPosition)
    {
        var length = _buffered - lengthPosition - 1;
        if (length < 0x80)
        {
            _span[lengthPosition] = (byte)length;
            return;
        }

        SlideForLength(lengthPosition, length);
    }

    /// <summary>The UTF-8 bytes of <paramref name="value"/>, a lone surrogate as U+FFFD (as Encoding.UTF8 and so Google.Protobuf write it).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUtf8(string value)
    {
        // The caller reserved 3 bytes a char, the most UTF-8 takes, so the transcoder always finishes.
        Utf8.FromUtf16(value, _span[_buffered..], out _, out var written, replaceInvalidSequences: true);
        _buffered += written;
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

    // The field's bytes move right to make room for a length of 2 or more bytes; the caller reserved 5 for it.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void SlideForLength(int lengthPosition, int length)
    {
        var lengthBytes = Leb128.Length((uint)length);
        _span.Slice(lengthPosition + 1, length).CopyTo(_span[(lengthPosition + lengthBytes)..]);
        var value = (uint)length;
        for (var i = 0; i < lengthBytes - 1; i++)
        {
            _span[lengthPosition + i] = (byte)(value | 0x80);
            value >>= 7;
        }

        _span[lengthPosition + lengthBytes - 1] = (byte)value;
        _buffered += lengthBytes - 1;
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
