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
    public void WriteArrayHeader(uint count)
    {
        if (count <= MessagePackRange.MaxFixArrayCount)
        {
            Reserve(1)[0] = (byte)(MessagePackCode.MinFixArray | count);
            Advance(1);
        }
        else if (count <= ushort.MaxValue)
        {
            var span = Reserve(3);
            span[0] = MessagePackCode.Array16;
            BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)count);
            Advance(3);
        }
        else
        {
            var span = Reserve(5);
            span[0] = MessagePackCode.Array32;
            BinaryPrimitives.WriteUInt32BigEndian(span[1..], count);
            Advance(5);
        }
    }

    /// <summary>
    /// An integer in the smallest format: positive fixint, uint 8/16/32/64 for values from 0 up; negative fixint,
    /// int 8/16/32/64 below 0 (MessagePack-CSharp never writes a signed format for a non-negative value).
    /// </summary>
    public void WriteInteger(long value)
    {
        if (value >= 0)
        {
            if (value <= MessagePackRange.MaxFixPositiveInt)
            {
                Reserve(1)[0] = (byte)value;
                Advance(1);
            }
            else if (value <= byte.MaxValue)
            {
                var span = Reserve(2);
                span[0] = MessagePackCode.UInt8;
                span[1] = (byte)value;
                Advance(2);
            }
            else if (value <= ushort.MaxValue)
            {
                var span = Reserve(3);
                span[0] = MessagePackCode.UInt16;
                BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)value);
                Advance(3);
            }
            else if (value <= uint.MaxValue)
            {
                var span = Reserve(5);
                span[0] = MessagePackCode.UInt32;
                BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)value);
                Advance(5);
            }
            else
            {
                var span = Reserve(9);
                span[0] = MessagePackCode.UInt64;
                BinaryPrimitives.WriteUInt64BigEndian(span[1..], (ulong)value);
                Advance(9);
            }
        }
        else if (value >= MessagePackRange.MinFixNegativeInt)
        {
            // 111yyyyy is the value's own two's-complement low byte.
            Reserve(1)[0] = (byte)value;
            Advance(1);
        }
        else if (value >= sbyte.MinValue)
        {
            var span = Reserve(2);
            span[0] = MessagePackCode.Int8;
            span[1] = (byte)value;
            Advance(2);
        }
        else if (value >= short.MinValue)
        {
            var span = Reserve(3);
            span[0] = MessagePackCode.Int16;
            BinaryPrimitives.WriteInt16BigEndian(span[1..], (short)value);
            Advance(3);
        }
        else if (value >= int.MinValue)
        {
            var span = Reserve(5);
            span[0] = MessagePackCode.Int32;
            BinaryPrimitives.WriteInt32BigEndian(span[1..], (int)value);
            Advance(5);
        }
        else
        {
            var span = Reserve(9);
            span[0] = MessagePackCode.Int64;
            BinaryPrimitives.WriteInt64BigEndian(span[1..], value);
            Advance(9);
        }
    }

    /// <summary>float 64 always, from the value's bits, so NaN payloads and -0.0 survive.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteFloat64(double value)
    {
        var span = Reserve(9);
        span[0] = MessagePackCode.Float64;
        BinaryPrimitives.WriteInt64BigEndian(span[1..], BitConverter.DoubleToInt64Bits(value));
        Advance(9);
    }

    /// <summary>nil for null, otherwise UTF-8 in fixstr, str 8, str 16 or str 32, chosen by the exact byte count.</summary>
    public void WriteString(string? value)
    {
        if (value is null)
        {
            WriteNil();
        }
        else if (value.Length <= MaxSinglePassChars)
        {
            WriteShortString(value);
        }
        else
        {
            WriteLongString(value);
        }
    }

    /// <summary>nil for null, otherwise the UTF-8 bytes as they are, behind the smallest header for their count.</summary>
    public void WriteString(Utf8Text value)
    {
        if (value.IsNull)
        {
            WriteNil();
            return;
        }

        var bytes = value.Bytes;
        var headerSize = StringHeaderSize(bytes.Length);
        var span = Reserve(headerSize + bytes.Length);
        WriteStringHeader(span, bytes.Length);
        bytes.CopyTo(span[headerSize..]);
        Advance(headerSize + bytes.Length);
    }

    private void WriteShortString(string value)
    {
        // A string has at least as many UTF-8 bytes as chars, so the header its char count calls for is the smallest it
        // can need, and ASCII text needs exactly that one: the bytes are encoded behind it and stay where they are. Only
        // when multi-byte chars push the count past a header boundary do they move, right, into the reserved room.
        var maxByteCount = value.Length * 3;
        var span = Reserve(StringHeaderSize(maxByteCount) + maxByteCount);
        var minHeaderSize = StringHeaderSize(value.Length);
        Utf8.FromUtf16(value, span[minHeaderSize..], out _, out var byteCount, replaceInvalidSequences: true, isFinalBlock: true);

        var headerSize = StringHeaderSize(byteCount);
        if (headerSize != minHeaderSize)
        {
            span.Slice(minHeaderSize, byteCount).CopyTo(span[headerSize..]);
        }

        WriteStringHeader(span, byteCount);
        Advance(headerSize + byteCount);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongString(string value)
    {
        var byteCount = Utf8Encoding.GetByteCount(value);
        var headerSize = StringHeaderSize(byteCount);
        WriteStringHeader(Reserve(headerSize), byteCount);
        Advance(headerSize);

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

    private static int StringHeaderSize(int byteCount) => byteCount switch
    {
        <= MessagePackRange.MaxFixStringLength => 1,
        <= byte.MaxValue => 2,
        <= ushort.MaxValue => 3,
        _ => 5,
    };

    private static void WriteStringHeader(Span<byte> span, int byteCount)
    {
        switch (byteCount)
        {
            case <= MessagePackRange.MaxFixStringLength:
                span[0] = (byte)(MessagePackCode.MinFixStr | byteCount);
                break;
            case <= byte.MaxValue:
                span[0] = MessagePackCode.Str8;
                span[1] = (byte)byteCount;
                break;
            case <= ushort.MaxValue:
                span[0] = MessagePackCode.Str16;
                BinaryPrimitives.WriteUInt16BigEndian(span[1..], (ushort)byteCount);
                break;
            default:
                span[0] = MessagePackCode.Str32;
                BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)byteCount);
                break;
        }
    }

    /// <summary>The unwritten span, at least <paramref name="size"/> bytes long.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Reserve(int size) => _buffer.GetSpan(size);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Advance(int count) => _buffer.Advance(count);

    [DoesNotReturn]
    private static void ThrowStringLengthChanged() =>
        throw new InvalidOperationException("A string's UTF-8 encoding did not match its measured length.");
}
