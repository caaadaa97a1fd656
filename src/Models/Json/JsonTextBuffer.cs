using System.Buffers.Text;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;
using System.Text.Unicode;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// One JSON string as <see cref="JsonOrganizationDecoder"/> keeps it: null, or unescaped, well-formed UTF-8 in a buffer
/// that is reused from one string to the next and grows only as far as <see cref="DecodeLimits.MaxStringBytes"/>
/// allows. A string is copied in when its token is read, so it outlives the bytes it came from (a member's texts may
/// arrive in an earlier call than the end of the member).
/// </summary>
internal sealed class JsonTextBuffer
{
    private byte[] _bytes = [];

    // -1 for null.
    private int _length = -1;

    /// <summary>The text as a view, valid until the next <see cref="Read"/>.</summary>
    public Utf8Text Text => _length < 0 ? default : new Utf8Text(new ReadOnlySpan<byte>(_bytes, 0, _length));

    public void SetNull() => _length = -1;

    /// <summary>The text as a new string, or null.</summary>
    public string? ToStringOrNull() => _length < 0 ? null : Encoding.UTF8.GetString(_bytes, 0, _length);

    /// <summary>
    /// Reads the string or property name <paramref name="reader"/> is on, whose token lies whole in its span (the
    /// decoder reads one span at a time), <paramref name="offset"/> being the payload offset of that span.
    /// </summary>
    /// <remarks>
    /// Refuses more than <paramref name="maxBytes"/> bytes of unescaped UTF-8 (LimitExceeded, at the token) before
    /// copying anything, and invalid UTF-8 or an escaped lone surrogate (Malformed, after the token). The reader does
    /// not check a string's UTF-8 itself; <see cref="Utf8JsonReader.CopyString(Span{byte})"/> checks what it
    /// unescapes, throwing <see cref="InvalidOperationException"/> as the decoder's other reader errors do.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Read(ref Utf8JsonReader reader, int maxBytes, long offset)
    {
        var raw = reader.ValueSpan;
        if (reader.ValueIsEscaped)
        {
            ReadEscaped(ref reader, maxBytes, offset);
            return;
        }

        if (raw.Length > maxBytes)
        {
            TooLong(offset + reader.TokenStartIndex, maxBytes);
        }

        if (!Utf8.IsValid(raw))
        {
            WireFormatThrow.InvalidUtf8(offset + reader.BytesConsumed, "A JSON string");
        }

        raw.CopyTo(Reserve(raw.Length, maxBytes));
        _length = raw.Length;
    }

    [DoesNotReturn]
    private static void TooLong(long offset, int maxBytes) =>
        WireFormatThrow.LimitExceeded(offset, nameof(DecodeLimits.MaxStringBytes), $"A string is longer than MaxStringBytes ({maxBytes}) bytes.");

    // Unescaping only shortens, so a string whose escaped form fits has room in that many bytes. A longer one is first
    // measured and checked where it lies, so that nothing is allocated for a string over the limit, and so that, as
    // for a short one, an invalid string is Malformed whatever its length.
    private void ReadEscaped(ref Utf8JsonReader reader, int maxBytes, long offset)
    {
        var raw = reader.ValueSpan;
        if (raw.Length > maxBytes)
        {
            var length = UnescapedLength(raw);
            if (length < 0 || !Utf8.IsValid(raw))
            {
                WireFormatThrow.InvalidUtf8(offset + reader.BytesConsumed, "A JSON string");
            }

            if (length > maxBytes)
            {
                TooLong(offset + reader.TokenStartIndex, maxBytes);
            }
        }

        // CopyString refuses a destination that the unescaped text would fill exactly when it ends in a plain run, so
        // it gets a byte more; the escaped form, at least one byte longer than the text, always has it.
        var room = maxBytes < Array.MaxLength ? maxBytes + 1 : maxBytes;
        _length = reader.CopyString(Reserve(Math.Min(raw.Length, room), room));
    }

    // The UTF-8 length of an escaped string once unescaped, or -1 when it escapes a lone surrogate. The reader has
    // already checked the escapes' syntax (\u is followed by four hex digits). A run between escapes keeps its length;
    // its own UTF-8 is checked apart, as escapes are ASCII and split no sequence.
    private static long UnescapedLength(ReadOnlySpan<byte> raw)
    {
        long length = 0;
        int backslash;
        while ((backslash = raw.IndexOf((byte)'\\')) >= 0)
        {
            length += backslash;
            if (raw[backslash + 1] != (byte)'u')
            {
                length++;
                raw = raw[(backslash + 2)..];
                continue;
            }

            var unit = Hex4(raw.Slice(backslash + 2, 4));
            raw = raw[(backslash + 6)..];
            if (!char.IsSurrogate((char)unit))
            {
                length += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
            }
            else if (char.IsHighSurrogate((char)unit) && raw.Length >= 6 && raw[0] == (byte)'\\' && raw[1] == (byte)'u' && char.IsLowSurrogate((char)Hex4(raw.Slice(2, 4))))
            {
                length += 4;
                raw = raw[6..];
            }
            else
            {
                return -1;
            }
        }

        return length + raw.Length;
    }

    private static int Hex4(ReadOnlySpan<byte> digits) => Utf8Parser.TryParse(digits, out int value, out _, 'x') ? value : -1;

    // At least length bytes (at most maxBytes), doubling so that a few steps reach the longest text.
    private Span<byte> Reserve(int length, int maxBytes)
    {
        if (_bytes.Length < length)
        {
            _bytes = new byte[(int)Math.Clamp(Math.Max(2L * _bytes.Length, 64), length, maxBytes)];
        }

        return _bytes;
    }
}
