using System.Buffers;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// Writes protobuf fields over a <see cref="BufferWriter"/>. A caller reserves room with <see cref="Reserve"/> and then
/// writes without further capacity checks. A length-delimited field is written before its length is known: one byte
/// is left for the length, which fits every string and member under 128 bytes, and the field is slid along in the
/// rare case its length needs more. So a string is read once, by the transcoder, not also counted first.
/// </summary>
internal ref struct ProtobufWireWriter
{
    private BufferWriter _buffer;

    public ProtobufWireWriter(IBufferWriter<byte> output) => _buffer = new BufferWriter(output);

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _buffer.BytesWritten;

    /// <summary>Whether the next <paramref name="count"/> bytes fit in the cached span without a refill.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool HasRoom(long count) => _buffer.HasRoom(count);

    /// <summary>Makes sure the next <paramref name="count"/> bytes fit in the cached span.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reserve(int count) => _buffer.Reserve(count);

    /// <summary>A tag that takes one byte, as every tag of this schema does.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteRawTag(byte tag) => _buffer.WriteByte(tag);

    /// <summary>A varint: int32 and int64 values go as their 64-bit two's complement, so negatives take 10 bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarint(ulong value) => _buffer.WriteVarint(value);

    /// <summary>fixed64: 8 bytes, little-endian.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteFixed64(ulong value) => _buffer.WriteUInt64LittleEndian(value);

    /// <summary>Leaves room for a length-delimited field's length; pass the result to <see cref="EndLengthDelimited"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int BeginLengthDelimited() => _buffer.Skip();

    /// <summary>Writes the length of the field begun at <paramref name="lengthPosition"/>, which ends here.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndLengthDelimited(int lengthPosition)
    {
        var length = _buffer.LengthAfter(lengthPosition);
        if (length < 0x80)
        {
            _buffer.Patch(lengthPosition, (byte)length);
            return;
        }

        SlideForLength(lengthPosition, length);
    }

    /// <summary>The UTF-8 bytes of <paramref name="value"/>, a lone surrogate as U+FFFD (as Encoding.UTF8 and so Google.Protobuf write it).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUtf8(string value) => _buffer.WriteUtf8(value);

    /// <summary>Bytes as they are: a decoder's UTF-8, already well-formed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBytes(ReadOnlySpan<byte> bytes) => _buffer.WriteBytes(bytes);

    /// <summary>Hands the buffered bytes to the output.</summary>
    public void Flush() => _buffer.Flush();

    // The field's bytes move right to make room for a length of 2 or more bytes; the caller reserved 5 for it.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void SlideForLength(int lengthPosition, int length)
    {
        var lengthBytes = Leb128.Length((uint)length);
        var field = _buffer.From(lengthPosition);
        field.Slice(1, length).CopyTo(field[lengthBytes..]);
        Leb128.Write(field[..lengthBytes], (uint)length);
        _buffer.Advance(lengthBytes - 1);
    }
}
