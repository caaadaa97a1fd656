using System.Buffers.Text;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Reads one member Text and puts its value back together from the previous value of the same field: section Text of
/// docs/binary-format.md (its four kinds, "stem(previous)", "decimal(number)" and its rules), the strict UTF-8 of
/// Encodings ("Texts"), and the <see cref="DecodeLimits.MaxStringBytes"/> rows of Reading for member texts. Values
/// are built in UTF-16 from the previous string's chars wherever its bytes and chars line up; anything else is
/// assembled in UTF-8 and decoded by the validating decoder. The decoder holds one as a field, so its calls reach
/// the limit and the buffer through the decoder itself.
/// </summary>
internal struct BinaryTextDecoder
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly int _maxBytes;

    // Holds a value assembled in UTF-8; grows only as far as the longest such value (or previous value) needs.
    private byte[] _buffer;

    public BinaryTextDecoder(DecodeLimits limits)
    {
        _maxBytes = limits.MaxStringBytes;
        _buffer = [];
    }

    /// <summary>
    /// Reads a Text of <paramref name="kind"/> written against <paramref name="previous"/>, the previous value of the
    /// same field, whose <paramref name="history"/> it may complete; false when its bytes are not all there.
    /// "Text (kind 0) := () // null" is read here, the other kinds out of line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryRead(ref BinaryReader reader, int kind, string? previous, ref TextFieldHistory history, out DecodedText text)
    {
        if (kind == BinaryWire.TextNull)
        {
            text = DecodedText.Null;
            return true;
        }

        return TryReadPresent(ref reader, kind, previous, ref history, out text);
    }

    /// <summary>
    /// "stem(previous) + decimal(number)": false, with only the UTF-8 length, when that length is above
    /// <paramref name="maxBytes"/>. The caller has checked that <paramref name="number"/> is below 10^19.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryBuildStemAndNumber(string? previous, ref TextFieldHistory history, ulong number, int maxBytes, out DecodedText decoded)
    {
        var trailingDigits = history.TrailingDigits(previous);
        var digits = DecimalDigits.Count(number);
        var length = history.Utf8Length - trailingDigits + digits;
        if ((uint)length > (uint)maxBytes)
        {
            decoded = new DecodedText(null, length, 0);
            return false;
        }

        var stemChars = (previous?.Length ?? 0) - trailingDigits;
        var value = string.Create(stemChars + digits, new StemAndNumber(previous, stemChars, number), static (chars, parts) => parts.Write(chars));
        decoded = new DecodedText(value, length, digits);
        return true;
    }

    /// <summary>
    /// "A reader rejects ill-formed UTF-8 (overlong forms, encoded surrogates, bytes above F4, truncated sequences) as
    /// Malformed", at <paramref name="offset"/>. The throwing decoder validates while it transcodes, so well-formed text
    /// costs a single pass.
    /// </summary>
    public static string DecodeUtf8(ReadOnlySpan<byte> bytes, long offset)
    {
        try
        {
            return StrictUtf8.GetString(bytes);
        }
        catch (DecoderFallbackException exception)
        {
            throw new WireFormatException(WireFormatError.Malformed, "A text is not well-formed UTF-8.", offset, innerException: exception);
        }
    }

    // "kind 3: stem(previous) + decimal(number)", the kind a writer takes first, is read here; kinds 1 and 2 out of line,
    // so that the common case runs in a small frame: their many locals, and the interpolation locals of their exception
    // messages, would otherwise be zeroed on entry for every text.
    // The value is put together in UTF-16 from the previous string's chars and the number's digits: the stem ends before
    // ASCII digits, so it ends on a char boundary whatever the previous value holds, and nothing is transcoded.
    private bool TryReadPresent(ref BinaryReader reader, int kind, string? previous, ref TextFieldHistory history, out DecodedText decoded)
    {
        if (kind != BinaryWire.TextStemAndNumber)
        {
            return TryReadPrefixed(ref reader, kind, previous, ref history, out decoded);
        }

        var numberOffset = reader.Offset;
        if (!reader.TryReadVarUInt64(out var number))
        {
            decoded = default;
            return false;
        }

        if (number >= BinaryWire.NumberLimit)
        {
            BinaryThrowHelper.ThrowNumberTooLong(numberOffset, number);
        }

        if (!TryBuildStemAndNumber(previous, ref history, number, _maxBytes, out decoded))
        {
            BinaryThrowHelper.ThrowLimitExceeded(numberOffset, nameof(DecodeLimits.MaxStringBytes), decoded.Utf8Length, _maxBytes);
        }

        return true;
    }

    // "kind 1: previous[0 .. prefixLength] + text, followed by decimal(number) when the flag says a number follows";
    // "kind 2: previous[0 .. prefixLength] + decimal(number)". The value is put together in UTF-16, from the previous
    // string's chars, the text and the number's digits, when the previous value is ASCII (so its byte prefix is a char
    // prefix) and so is the literal text: nothing is then transcoded or validated again. Anything else is assembled in
    // UTF-8 and decoded by the validating decoder.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryReadPrefixed(ref BinaryReader reader, int kind, string? previous, ref TextFieldHistory history, out DecodedText decoded)
    {
        decoded = DecodedText.Null;
        var offset = reader.Offset;
        var maxBytes = (uint)_maxBytes;
        var previousChars = previous.AsSpan();
        var hasNumber = true;
        ReadOnlySpan<byte> text = default;
        if (!reader.TryReadVarUInt32(out var prefixBytes))
        {
            return false;
        }

        if (prefixBytes > (uint)history.Utf8Length)
        {
            BinaryThrowHelper.ThrowPrefixTooLong(offset, prefixBytes, history.Utf8Length);
        }

        // A value whose UTF-8 is as long as its UTF-16 is ASCII: its byte prefix is the same char prefix.
        var prefixChars = history.Utf8Length == previousChars.Length ? (int)prefixBytes : -1;
        if (kind == BinaryWire.TextPrefixAndText)
        {
            var lengthOffset = reader.Offset;
            if (!reader.TryReadVarUInt32(out var textLengthAndNumberFlag))
            {
                return false;
            }

            var textLength = textLengthAndNumberFlag >> 1;
            hasNumber = (textLengthAndNumberFlag & BinaryWire.NumberFollowsFlag) != 0;
            if ((ulong)prefixBytes + textLength > maxBytes)
            {
                BinaryThrowHelper.ThrowLimitExceeded(lengthOffset, nameof(DecodeLimits.MaxStringBytes), (long)prefixBytes + textLength, maxBytes);
            }

            if (!reader.TryReadBytes((int)textLength, out text))
            {
                return false;
            }
        }

        var length = (int)prefixBytes + text.Length;
        ulong number = 0;
        var digits = 0;
        if (hasNumber)
        {
            var numberOffset = reader.Offset;
            if (!reader.TryReadVarUInt64(out number))
            {
                return false;
            }

            if (number >= BinaryWire.NumberLimit)
            {
                BinaryThrowHelper.ThrowNumberTooLong(numberOffset, number);
            }

            digits = DecimalDigits.Count(number);
            length += digits;
            if ((uint)length > maxBytes)
            {
                BinaryThrowHelper.ThrowLimitExceeded(numberOffset, nameof(DecodeLimits.MaxStringBytes), length, maxBytes);
            }
        }

        var value = prefixChars >= 0 && Ascii.IsValid(text)
            ? string.Create(prefixChars + text.Length + digits, new TextParts(previousChars[..prefixChars], text, number, hasNumber), static (chars, parts) => TextParts.Write(chars, parts))
            : DecodeAssembled(previous, history.Utf8Length, (int)prefixBytes, text, hasNumber, number, length, offset);

        // How many digits end the value is counted only if the next member's text is kind 3.
        decoded = new DecodedText(value, length, -1);
        return true;
    }

    // The UTF-8 path: the previous value's bytes (it round-trips exactly, having been decoded from well-formed UTF-8),
    // the literal text and the digits, in one buffer that the validating decoder turns into the value.
    private string DecodeAssembled(string? previous, int previousBytes, int prefixBytes, ReadOnlySpan<byte> text, bool hasNumber, ulong number, int length, long offset)
    {
        if (_buffer.Length < Math.Max(previousBytes, length))
        {
            _buffer = new byte[Math.Max(Math.Max(previousBytes, length), 2 * _buffer.Length)];
        }

        var buffer = _buffer.AsSpan();
        if (prefixBytes > 0)
        {
            Encoding.UTF8.GetBytes(previous, buffer);
        }

        text.CopyTo(buffer[prefixBytes..]);
        if (hasNumber)
        {
            Utf8Formatter.TryFormat(number, buffer[(prefixBytes + text.Length)..], out _);
        }

        return DecodeUtf8(buffer[..length], offset);
    }

    /// <summary>A kind 3 value: the previous value's first chars (its stem) and a number.</summary>
    private readonly struct StemAndNumber(string? previous, int stemChars, ulong number)
    {
        public void Write(Span<char> chars)
        {
            previous.AsSpan(0, stemChars).CopyTo(chars);
            number.TryFormat(chars[stemChars..], out _, default, CultureInfo.InvariantCulture);
        }
    }

    /// <summary>The parts of a value put together in UTF-16: a prefix of the previous value, ASCII text, and a number.</summary>
    private readonly ref struct TextParts(ReadOnlySpan<char> prefix, ReadOnlySpan<byte> asciiText, ulong number, bool hasNumber)
    {
        private readonly ReadOnlySpan<char> _prefix = prefix;
        private readonly ReadOnlySpan<byte> _asciiText = asciiText;
        private readonly ulong _number = number;
        private readonly bool _hasNumber = hasNumber;

        public static void Write(Span<char> chars, TextParts parts)
        {
            parts._prefix.CopyTo(chars);
            var textEnd = parts._prefix.Length + parts._asciiText.Length;
            if (!parts._asciiText.IsEmpty)
            {
                Ascii.ToUtf16(parts._asciiText, chars[parts._prefix.Length..textEnd], out _);
            }

            if (parts._hasNumber)
            {
                parts._number.TryFormat(chars[textEnd..], out _, default, CultureInfo.InvariantCulture);
            }
        }
    }
}
