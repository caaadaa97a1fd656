using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Writes the binary format's primitives over a <see cref="BufferWriter"/>. A caller reserves room with
/// <see cref="Reserve"/> once per member and then writes that member without further capacity checks.
/// </summary>
internal ref struct BinaryWireWriter
{
    private BufferWriter _buffer;

    public BinaryWireWriter(IBufferWriter<byte> output) => _buffer = new BufferWriter(output);

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _buffer.BytesWritten;

    /// <summary>Makes sure the next <paramref name="count"/> bytes fit in the cached span.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reserve(int count) => _buffer.Reserve(count);

    /// <summary>Whether the next <paramref name="count"/> bytes fit in the cached span without a refill.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool HasRoom(long count) => _buffer.HasRoom(count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value) => _buffer.WriteByte(value);

    /// <summary>
    /// Leaves one byte to be written later with <see cref="PatchByte"/> and returns its position, which stays valid
    /// until the next <see cref="Reserve"/> or <see cref="Flush"/>: only those move to another span.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int SkipByte() => _buffer.Skip();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void PatchByte(int position, byte value) => _buffer.Patch(position, value);

    /// <summary>varint32: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt32(uint value) => _buffer.WriteVarint(value);

    /// <summary>varint64: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt64(ulong value) => _buffer.WriteVarint(value);

    /// <summary>float64: the value's IEEE 754 bits, little-endian.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteDouble(double value) => _buffer.WriteUInt64LittleEndian(BitConverter.DoubleToUInt64Bits(value));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBytes(ReadOnlySpan<byte> bytes) => _buffer.WriteBytes(bytes);

    /// <summary>
    /// Writes <paramref name="chars"/> as UTF-8, which the caller measured as <paramref name="byteCount"/> bytes with
    /// <see cref="System.Text.Encoding.UTF8"/>; both write a lone surrogate as U+FFFD, so the two always agree.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUtf8(ReadOnlySpan<char> chars, int byteCount)
    {
        var written = _buffer.WriteUtf8(chars);
        Debug.Assert(written == byteCount, "Encoding.UTF8 and Utf8.FromUtf16 measured the text differently.");
    }

    /// <summary>Hands the buffered bytes to the output.</summary>
    public void Flush() => _buffer.Flush();
}
