using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;
using MessagePack;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// Writes MessagePack values into an <see cref="IBufferWriter{T}"/>, choosing for every integer, string and array
/// the smallest format that holds it, as MessagePack-CSharp's <c>MessagePackWriter</c> does, so both write the
/// same bytes, over a <see cref="BufferWriter"/>: call <see cref="Flush"/> before the output is used by anyone else.
/// </summary>
internal ref struct MessagePackWireWriter
{
    // Up to this many UTF-16 chars a string is encoded in one pass straight into the output and the header is written
    // afterwards; a char is at most 3 UTF-8 bytes, so the span asked for is at most 771 bytes. Longer strings are
    // measured first and encoded in pieces.
    private const int MaxSinglePassChars = 256;

    // The largest piece a long string asks the output for at once.
    private const int LongStringChunkBytes = 16 * 1024;

    /// <summary>The most bytes an integer takes: a type byte and 8 bytes.</summary>
    public const int MaxIntegerBytes = 9;

    /// <summary>The bytes a float 64 takes: a type byte and 8 bytes.</summary>
    public const int MaxFloat64Bytes = 9;

    // Lone surrogates become U+FFFD, as with MessagePack-CSharp's UTF8Encoding; the pieces written by
    // Utf8.FromUtf16(replaceInvalidSequences: true) add up to this encoding's byte count.
    private static readonly UTF8Encoding Utf8Encoding = new(encoderShouldEmitUTF8Identifier: false);

    private BufferWriter _buffer;

    public MessagePackWireWriter(IBufferWriter<byte> output) => _buffer = new BufferWriter(output);

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _buffer.BytesWritten;

    /// <summary>Hands the bytes written so far to the output (<see cref="IBufferWriter{T}.Advance"/>).</summary>
    public void Flush() => _buffer.Flush();

    /// <summary>nil: <c>0xc0</c>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNil()
    {
        Reserve(1)[0] = MessagePackCode.Nil;
        Advance(1);
    }

    /// <summary>fixarray up to 15 elements, array 16 up to 2^16-1, array 32 beyond.</summary>
    public void WriteArrayHeader(uint count) => Advance(WriteArrayHeader(Reserve(5), count));

    /// <summary>
    /// An integer in the smallest format: positive fixint, uint 8/16/32/64 for values from 0 up; negative fixint,
    /// int 8/16/32/64 below 0 (MessagePack-CSharp never writes a signed format for a non-negative value).
    /// </summary>
    public void WriteInteger(long value) => Advance(WriteInteger(Reserve(MaxIntegerBytes), value));

    /// <summary>float 64 always, from the value's bits, so NaN payloads and -0.0 survive.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteFloat64(double value) => Advance(WriteFloat64(Reserve(MaxFloat64Bytes), value));

    /// <summary>nil for null, otherwise UTF-8 in fixstr, str 8, str 16 or str 32, chosen by the exact byte count.</summary>
    public void WriteString(string? value)
    {
        if (IsShortString(value))
        {
            Advance(WriteShortString(Reserve(MaxShortStringBytes(value)), value));
        }
        else
        {
            WriteLongString(value);
        }
    }

    /// <summary>
    /// Whether <paramref name="value"/> goes through <see cref="WriteShortString(Span{byte}, string?)"/>: null, or at
    /// most <see cref="MaxSinglePassChars"/> chars.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsShortString([NotNullWhen(false)] string? value) => value is null || value.Length <= MaxSinglePassChars;

    /// <summary>The most bytes <see cref="WriteShortString(Span{byte}, string?)"/> writes for <paramref name="value"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int MaxShortStringBytes(string? value) => value is null ? 1 : StringHeaderSize(value.Length * 3) + (value.Length * 3);

    /// <summary>The bytes <see cref="WriteString(Span{byte}, Utf8Text)"/> writes for <paramref name="value"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int MaxStringBytes(Utf8Text value) => value.IsNull ? 1 : StringHeaderSize(value.Bytes.Length) + value.Bytes.Length;

    /// <summary>Room for <paramref name="size"/> bytes, to be filled by the span writers below and committed with <see cref="Advance"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> Reserve(int size) => _buffer.GetSpan(size);

    /// <summary>Commits <paramref name="count"/> bytes written into the span from <see cref="Reserve"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count) => _buffer.Advance(count);

    // The span writers: each writes one value at the start of a span that has room for it (5 bytes for an array header,
    // MaxIntegerBytes, MaxFloat64Bytes, MaxShortStringBytes, MaxStringBytes) and returns the bytes written, so that a
    // caller that reserved room for several values once writes them without a check each.

    /// <inheritdoc cref="WriteArrayHeader(uint)"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteArrayHeader(Span<byte> span, uint count)
    {
        if (count <= MessagePackRange.MaxFixArrayCount)
        {
            span[0] = (byte)(MessagePackCode.MinFixArray | count);
            return 1;
        }

        return WriteLongArrayHeader(span, count);
    }

    /// <inheritdoc cref="WriteInteger(long)"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteInteger(Span<byte> span, long value)
    {
        if ((ulong)value <= MessagePackRange.MaxFixPositiveInt)
        {
            span[0] = (byte)value;
            return 1;
        }

        return WriteWideInteger(span, value);
    }

    /// <inheritdoc cref="WriteFloat64(double)"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteFloat64(Span<byte> span, double value)
    {
        span[0] = MessagePackCode.Float64;
        BinaryPrimitives.WriteInt64BigEndian(span[1..], BitConverter.DoubleToInt64Bits(value));
        return MaxFloat64Bytes;
    }

    /// <summary>A string for which <see cref="IsShortString"/> holds: nil for null, otherwise UTF-8 behind the smallest header.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteShortString(Span<byte> span, string? value)
    {
        if (value is null)
        {
            span[0] = MessagePackCode.Nil;
            return 1;
        }

        // A string has at least as many UTF-8 bytes as chars, so the header its char count calls for is the smallest it
        // can need, and ASCII text needs exactly that one: the bytes are encoded behind it and stay where they are. Only
        // when multi-byte chars push the count past a header boundary do they move, right, into the reserved room.
        var minHeaderSize = StringHeaderSize(value.Length);
        var byteCount = Utf8Transcoder.Write(value, span[minHeaderSize..]);
        var headerSize = StringHeaderSize(byteCount);
        if (headerSize != minHeaderSize)
        {
            span.Slice(minHeaderSize, byteCount).CopyTo(span[headerSize..]);
        }

        WriteStringHeader(span, byteCount);
        return headerSize + byteCount;
    }

    /// <summary>nil for null, otherwise the UTF-8 bytes as they are, behind the smallest header for their count.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteString(Span<byte> span, Utf8Text value)
    {
        if (value.IsNull)
        {
            span[0] = MessagePackCode.Nil;
            return 1;
        }

        var bytes = value.Bytes;
        var headerSize = WriteStringHeader(span, bytes.Length);
        bytes.CopyTo(span[headerSize..]);
        return headerSize + bytes.Length;
    }

    private static int WriteLongArrayHeader(Span<byte> span, uint count)
    {
        if (count <= ushort.MaxValue)
        {
            span[0] = MessagePackCode.Array16;
            BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)count);
            return 3;
        }

        span[0] = MessagePackCode.Array32;
        BinaryPrimitives.WriteUInt32BigEndian(span[1..], count);
        return 5;
    }

    // Every integer but a positive fixint.
    private static int WriteWideInteger(Span<byte> span, long value)
    {
        if (value >= 0)
        {
            if (value <= byte.MaxValue)
            {
                span[0] = MessagePackCode.UInt8;
                span[1] = (byte)value;
                return 2;
            }

            if (value <= ushort.MaxValue)
            {
                span[0] = MessagePackCode.UInt16;
                BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)value);
                return 3;
            }

            if (value <= uint.MaxValue)
            {
                span[0] = MessagePackCode.UInt32;
                BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)value);
                return 5;
            }

            span[0] = MessagePackCode.UInt64;
            BinaryPrimitives.WriteUInt64BigEndian(span[1..], (ulong)value);
            return 9;
        }

        if (value >= MessagePackRange.MinFixNegativeInt)
        {
            // 111yyyyy is the value's own two's-complement low byte.
            span[0] = (byte)value;
            return 1;
        }

        if (value >= sbyte.MinValue)
        {
            span[0] = MessagePackCode.Int8;
            span[1] = (byte)value;
            return 2;
        }

        if (value >= short.MinValue)
        {
            span[0] = MessagePackCode.Int16;
            BinaryPrimitives.WriteInt16BigEndian(span[1..], (short)value);
            return 3;
        }

        if (value >= int.MinValue)
        {
            span[0] = MessagePackCode.Int32;
            BinaryPrimitives.WriteInt32BigEndian(span[1..], (int)value);
            return 5;
        }

        span[0] = MessagePackCode.Int64;
        BinaryPrimitives.WriteInt64BigEndian(span[1..], value);
        return 9;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongString(string value)
    {
        var byteCount = Utf8Encoding.GetByteCount(value);
        Advance(WriteStringHeader(Reserve(StringHeaderSize(byteCount)), byteCount));

        var chars = value.AsSpan();
        var remaining = byteCount;
        OperationStatus status;
        do
        {
            if (remaining == 0)
            {
                ThrowStringLengthChanged();
            }

            // Never past the length in the header. While more than a piece remains the span holds a whole piece
            // (at least one 4-byte scalar); after that it holds exactly the rest, so every round makes progress.
            var span = Reserve(Math.Min(remaining, LongStringChunkBytes));
            span = span[..Math.Min(span.Length, remaining)];
            status = Utf8.FromUtf16(chars, span, out var charsRead, out var bytesWritten, replaceInvalidSequences: true, isFinalBlock: true);
            Advance(bytesWritten);
            chars = chars[charsRead..];
            remaining -= bytesWritten;
        }
        while (status != OperationStatus.Done);

        if (remaining != 0)
        {
            ThrowStringLengthChanged();
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int StringHeaderSize(int byteCount) => byteCount switch
    {
        <= MessagePackRange.MaxFixStringLength => 1,
        <= byte.MaxValue => 2,
        <= ushort.MaxValue => 3,
        _ => 5,
    };

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteStringHeader(Span<byte> span, int byteCount)
    {
        switch (byteCount)
        {
            case <= MessagePackRange.MaxFixStringLength:
                span[0] = (byte)(MessagePackCode.MinFixStr | byteCount);
                return 1;
            case <= byte.MaxValue:
                span[0] = MessagePackCode.Str8;
                span[1] = (byte)byteCount;
                return 2;
            case <= ushort.MaxValue:
                span[0] = MessagePackCode.Str16;
                BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)byteCount);
                return 3;
            default:
                span[0] = MessagePackCode.Str32;
                BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)byteCount);
                return 5;
        }
    }

    [DoesNotReturn]
    private static void ThrowStringLengthChanged() =>
        throw new InvalidOperationException("A string's UTF-8 encoding did not match its measured length.");
}
