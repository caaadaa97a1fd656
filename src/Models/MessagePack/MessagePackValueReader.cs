using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using MessagePack;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// Reads one MessagePack value of the family a field expects from a <see cref="BufferReader"/>, in any format the
/// specification has for it, the twin of <see cref="MessagePackWireWriter"/>. As with the reader's own reads, each
/// <c>TryRead</c> returns false when the bytes end first, and throws through <see cref="WireFormatThrow"/>, at the value's offset, when
/// the bytes there are another family, a number out of the field's range, a string over its limit (as soon as its
/// length is read) or not well-formed UTF-8; the caller rewinds to the unit's start on false. <c>what</c>
/// names the field in messages.
/// </summary>
internal static class MessagePackValueReader
{
    // nil, fixstr, str 8, str 16 or str 32 holding well-formed UTF-8, as a span of the input.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadText(ref BufferReader reader, string what, int maxBytes, out Utf8Text text)
    {
        text = default;
        var start = reader.Position;
        if (!reader.TryReadByte(out var code))
        {
            return false;
        }

        int length;
        if (code is >= MessagePackCode.MinFixStr and <= MessagePackCode.MaxFixStr)
        {
            length = code & MessagePackRange.MaxFixStringLength;
            if (length > maxBytes)
            {
                ThrowStringOverLimit(reader.OffsetOf(start), what, length, maxBytes);
            }
        }
        else if (code == MessagePackCode.Nil)
        {
            return true;
        }
        else if (!TryReadStringLength(ref reader, code, reader.OffsetOf(start), what, maxBytes, out length))
        {
            return false;
        }

        if (!reader.TryReadBytes(length, out var bytes))
        {
            return false;
        }

        if (!Utf8Text.IsWellFormed(bytes))
        {
            WireFormatThrow.InvalidUtf8(reader.OffsetOf(start), what);
        }

        text = new Utf8Text(bytes);
        return true;
    }

    // The length after a str 8, str 16 or str 32 first byte, held to MaxStringBytes as soon as it is read.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool TryReadStringLength(ref BufferReader reader, byte code, long start, string what, int maxBytes, out int length)
    {
        length = 0;
        long declared;
        switch (code)
        {
            case MessagePackCode.Str8:
                if (!reader.TryReadByte(out var length8))
                {
                    return false;
                }

                declared = length8;
                break;
            case MessagePackCode.Str16:
                if (!reader.TryReadUInt16BigEndian(out var length16))
                {
                    return false;
                }

                declared = length16;
                break;
            case MessagePackCode.Str32:
                if (!reader.TryReadUInt32BigEndian(out var length32))
                {
                    return false;
                }

                declared = length32;
                break;
            default:
                ThrowUnexpectedFormat(code, start, what, "a string or nil");
                return false;
        }

        if (declared > maxBytes)
        {
            ThrowStringOverLimit(start, what, declared, maxBytes);
        }

        length = (int)declared;
        return true;
    }

    // Any format of the int family, as long as the value lies in [min, max].
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadInteger(ref BufferReader reader, string what, long min, long max, out long value)
    {
        var start = reader.Position;
        if (!reader.TryReadByte(out var code))
        {
            value = 0;
            return false;
        }

        if (code <= MessagePackCode.MaxFixInt)
        {
            value = code;
            return true;
        }

        // uint 8, 16, 32 or 64 with 8 bytes at hand, in range (every member's Id and UpdateTime as the encoders write
        // them): one big-endian load shifted down to the value's width. Anything else takes the checked path below.
        var width = code - MessagePackCode.UInt8;
        if ((uint)width <= 3 && reader.Remaining >= sizeof(ulong))
        {
            var size = 1 << width;
            var raw = BinaryPrimitives.ReadUInt64BigEndian(reader.Unread) >> (64 - (8 * size));
            if (raw <= (ulong)max)
            {
                reader.Position += size;
                value = (long)raw;
                return true;
            }
        }

        return TryReadWideInteger(ref reader, code, reader.OffsetOf(start), what, min, max, out value);
    }

    // Every int format but a positive fixint: out of line, so that the member loop inlines only the one-byte test.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool TryReadWideInteger(ref BufferReader reader, byte code, long start, string what, long min, long max, out long value)
    {
        if (!IsInteger(code))
        {
            ThrowUnexpectedFormat(code, start, what, "an integer");
        }

        if (!TryReadIntegerBody(ref reader, code, out value, out var isAboveInt64))
        {
            return false;
        }

        if (isAboveInt64 || value < min || value > max)
        {
            ThrowIntegerOutOfRange(start, what, value, isAboveInt64, min, max);
        }

        return true;
    }

    // float 64 or float 32; an integer too, as encoders in languages with a single number type write whole numbers so.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadDouble(ref BufferReader reader, string what, out double value)
    {
        var start = reader.Position;
        if (!reader.TryReadByte(out var code))
        {
            value = 0;
            return false;
        }

        if (code == MessagePackCode.Float64)
        {
            var read = reader.TryReadUInt64BigEndian(out var bits);
            value = BitConverter.UInt64BitsToDouble(bits);
            return read;
        }

        return TryReadOtherNumber(ref reader, code, reader.OffsetOf(start), what, out value);
    }

    // float 32 or an int format: out of line, as the encoders here and MessagePack-CSharp write float 64.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool TryReadOtherNumber(ref BufferReader reader, byte code, long start, string what, out double value)
    {
        value = 0;
        if (code == MessagePackCode.Float32)
        {
            if (!reader.TryReadUInt32BigEndian(out var bits))
            {
                return false;
            }

            value = BitConverter.UInt32BitsToSingle(bits);
            return true;
        }

        if (!IsInteger(code))
        {
            ThrowUnexpectedFormat(code, start, what, "a float or an integer");
        }

        if (!TryReadIntegerBody(ref reader, code, out var integer, out var isAboveInt64))
        {
            return false;
        }

        value = isAboveInt64 ? (ulong)integer : integer;
        return true;
    }

    // The bytes after an int-family first byte (none for the fixints); isAboveInt64 marks a uint 64 beyond long.MaxValue,
    // whose bits are then in value.
    private static bool TryReadIntegerBody(ref BufferReader reader, byte code, out long value, out bool isAboveInt64)
    {
        value = 0;
        isAboveInt64 = false;
        switch (code)
        {
            case <= MessagePackCode.MaxFixInt:
                value = code;
                return true;
            case >= MessagePackCode.MinNegativeFixInt:
                value = (sbyte)code;
                return true;
            case MessagePackCode.UInt8:
            case MessagePackCode.Int8:
                if (!reader.TryReadByte(out var byteValue))
                {
                    return false;
                }

                value = code == MessagePackCode.UInt8 ? byteValue : (sbyte)byteValue;
                return true;
            case MessagePackCode.UInt16:
            case MessagePackCode.Int16:
                if (!reader.TryReadUInt16BigEndian(out var shortValue))
                {
                    return false;
                }

                value = code == MessagePackCode.UInt16 ? shortValue : (short)shortValue;
                return true;
            case MessagePackCode.UInt32:
            case MessagePackCode.Int32:
                if (!reader.TryReadUInt32BigEndian(out var intValue))
                {
                    return false;
                }

                value = code == MessagePackCode.UInt32 ? intValue : (int)intValue;
                return true;
            default:
                if (!reader.TryReadUInt64BigEndian(out var longValue))
                {
                    return false;
                }

                value = (long)longValue;
                isAboveInt64 = code == MessagePackCode.UInt64 && value < 0;
                return true;
        }
    }

    private static bool IsInteger(byte code) =>
        code is <= MessagePackCode.MaxFixInt or >= MessagePackCode.MinNegativeFixInt or (>= MessagePackCode.UInt8 and <= MessagePackCode.Int64);

    // fixarray, array 16 or array 32; nil gives -1 where the model allows null.
    public static bool TryReadArrayHeader(ref BufferReader reader, string what, bool nilAllowed, out long count)
    {
        count = 0;
        var start = reader.Offset;
        if (!reader.TryReadByte(out var code))
        {
            return false;
        }

        switch (code)
        {
            case >= MessagePackCode.MinFixArray and <= MessagePackCode.MaxFixArray:
                count = code & MessagePackRange.MaxFixArrayCount;
                return true;
            case MessagePackCode.Array16:
                var read16 = reader.TryReadUInt16BigEndian(out var count16);
                count = count16;
                return read16;
            case MessagePackCode.Array32:
                var read32 = reader.TryReadUInt32BigEndian(out var count32);
                count = count32;
                return read32;
            case MessagePackCode.Nil when nilAllowed:
                count = -1;
                return true;
            default:
                ThrowUnexpectedFormat(code, start, what, nilAllowed ? "an array or nil" : "an array");
                return false;
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowStringOverLimit(long start, string what, long length, int maxBytes) =>
        WireFormatThrow.LimitExceeded(start, nameof(DecodeLimits.MaxStringBytes), $"{what} declares {length} bytes; the limit is {maxBytes}.");

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowIntegerOutOfRange(long start, string what, long value, bool isAboveInt64, long min, long max)
    {
        var shown = isAboveInt64 ? ((ulong)value).ToString(CultureInfo.InvariantCulture) : value.ToString(CultureInfo.InvariantCulture);
        WireFormatThrow.Malformed(start, $"{what} is {shown}, outside [{min}, {max}].");
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowUnexpectedFormat(byte code, long start, string what, string expected) =>
        WireFormatThrow.Malformed(start, $"Expected {what} as {expected}, found {MessagePackCode.ToFormatName(code)} (0x{code:x2}).");
}
