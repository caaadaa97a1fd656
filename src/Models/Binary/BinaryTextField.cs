using System.Runtime.CompilerServices;
using System.Text.Unicode;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// One member text field while a payload is read: section Text of docs/binary-format.md, with the MaxStringBytes and
/// UTF-8 rows of Reading for member texts. It holds the previous
/// member's value of the field as UTF-8 ("previous") and puts the next value together in the same buffer, after the
/// prefix or stem of "previous" that the next value keeps, so nothing is copied but the text and the digits. Writing
/// there changes no byte that any Text of this field reads (each reads only "previous[0 .. prefixLength]" or
/// "stem(previous)", which the next value keeps), so a member cut short can be read again from its first byte;
/// <see cref="Commit"/> makes the next value's length the previous one's once its whole member is read. The buffer
/// grows only as far as the longest value needs, and no string is made: the sink sees a span (<see cref="Value"/>).
/// </summary>
internal struct BinaryTextField
{
    private byte[] _bytes;

    // -1 for null; a null previous value reads as empty ("empty when that was null").
    private int _length;
    private int _nextLength;

    // How many ASCII digits end a value; -1 until a kind 3 text needs it.
    private int _trailingDigits;
    private int _nextTrailingDigits;

    public BinaryTextField()
    {
        _bytes = new byte[64];
        _length = -1;
    }

    /// <summary>The UTF-8 length of "previous": what a prefix length may not exceed.</summary>
    public readonly int PreviousLength => Math.Max(_length, 0);

    /// <summary>The value last committed, as the sink sees it.</summary>
    public readonly Utf8Text Value => _length < 0 ? default : new Utf8Text(new ReadOnlySpan<byte>(_bytes, 0, _length));

    /// <summary>The length of "stem(previous)": previous without its trailing ASCII digits, counted once per value.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int PreviousStemLength()
    {
        if (_trailingDigits < 0)
        {
            CountTrailingDigits();
        }

        return PreviousLength - _trailingDigits;
    }

    /// <summary>
    /// Reads a Text of <paramref name="kind"/> and puts the next value together; false when its bytes are not all there.
    /// "Text (kind 0) := () // null" and "Text (kind 3) := (varint64 number)" are read here, the other kinds out of line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryRead(ref BufferReader reader, int kind, int maxBytes)
    {
        if (kind == BinaryWire.TextNull)
        {
            SetNextNull();
            return true;
        }

        if (kind != BinaryWire.TextStemAndNumber)
        {
            return TryReadPrefixed(ref reader, kind, maxBytes);
        }

        var numberOffset = reader.Offset;
        if (!TryReadNumber(ref reader, out var number, out var digits))
        {
            return false;
        }

        var stem = PreviousStemLength();
        CheckLength(numberOffset, stem + digits, maxBytes);
        SetNextStemAndNumber(stem, number, digits);
        return true;
    }

    // "kind 1: previous[0 .. prefixLength] + text, followed by decimal(number) when the flag says a number follows";
    // "kind 2: previous[0 .. prefixLength] + decimal(number)".
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryReadPrefixed(ref BufferReader reader, int kind, int maxBytes)
    {
        var offset = reader.Offset;
        if (!BinaryVarint.TryReadUInt32(ref reader, out var prefix))
        {
            return false;
        }

        if (prefix > (uint)PreviousLength)
        {
            BinaryThrowHelper.ThrowPrefixTooLong(offset, prefix, PreviousLength);
        }

        var hasNumber = true;
        ReadOnlySpan<byte> text = default;
        if (kind == BinaryWire.TextPrefixAndText)
        {
            var lengthOffset = reader.Offset;
            if (!BinaryVarint.TryReadUInt32(ref reader, out var textLengthAndNumberFlag))
            {
                return false;
            }

            var textLength = textLengthAndNumberFlag >> 1;
            hasNumber = (textLengthAndNumberFlag & BinaryWire.NumberFollowsFlag) != 0;
            CheckLength(lengthOffset, (long)prefix + textLength, maxBytes);
            if (!reader.TryReadBytes((int)textLength, out text))
            {
                return false;
            }
        }

        var length = (int)prefix + text.Length;
        ulong number = 0;
        if (hasNumber)
        {
            var numberOffset = reader.Offset;
            if (!TryReadNumber(ref reader, out number, out var digits))
            {
                return false;
            }

            length += digits;
            CheckLength(numberOffset, length, maxBytes);
        }

        if (!TrySetNextPrefixed((int)prefix, text, hasNumber, number, length))
        {
            WireFormatThrow.Malformed(offset, "A text is not well-formed UTF-8.");
        }

        return true;
    }

    // "number must be below 10^19, that is, have at most 19 digits (Malformed otherwise)."
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryReadNumber(ref BufferReader reader, out ulong number, out int digits)
    {
        var numberOffset = reader.Offset;
        if (!BinaryVarint.TryReadUInt64(ref reader, out number))
        {
            digits = 0;
            return false;
        }

        if (number >= BinaryWire.NumberLimit)
        {
            BinaryThrowHelper.ThrowNumberTooLong(numberOffset, number);
        }

        digits = DecimalDigits.Count(number);
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void CheckLength(long offset, long length, int maxBytes)
    {
        if ((ulong)length > (ulong)maxBytes)
        {
            WireFormatThrow.LimitExceeded(offset, nameof(DecodeLimits.MaxStringBytes), length, maxBytes);
        }
    }

    /// <summary>"Text (kind 0) := () // null".</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void SetNextNull()
    {
        _nextLength = -1;
        _nextTrailingDigits = 0;
    }

    /// <summary>
    /// "kind 3: stem(previous) + decimal(number)", whose <paramref name="stem"/> and <paramref name="digits"/> the
    /// caller measured and held to the limit. A stem ends before ASCII digits, so on a code point: nothing to check.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void SetNextStemAndNumber(int stem, ulong number, int digits)
    {
        var length = stem + digits;
        DecimalDigits.Write(Room(stem, length)[stem..], number, digits);
        _nextLength = length;
        _nextTrailingDigits = digits;
    }

    /// <summary>
    /// "kind 1: previous[0 .. prefixLength] + text, followed by decimal(number) when the flag says a number follows";
    /// "kind 2: previous[0 .. prefixLength] + decimal(number)". The caller held <paramref name="length"/> to the limit.
    /// False when the value is not well-formed UTF-8: a prefix may end inside a sequence that the text completes, so
    /// then the whole value is checked; otherwise the text alone.
    /// </summary>
    private bool TrySetNextPrefixed(int prefix, ReadOnlySpan<byte> text, bool hasNumber, ulong number, int length)
    {
        var endsOnCodePoint = prefix == PreviousLength || (_bytes[prefix] & 0xC0) != 0x80;
        var next = Room(prefix, length);
        text.CopyTo(next[prefix..]);
        if (hasNumber)
        {
            DecimalDigits.Write(next[(prefix + text.Length)..], number, length - prefix - text.Length);
        }

        _nextLength = length;
        _nextTrailingDigits = -1;
        return endsOnCodePoint ? Utf8.IsValid(text) : Utf8.IsValid(next[..length]);
    }

    /// <summary>The next value becomes the previous one, once its whole member has been read.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Commit()
    {
        _length = _nextLength;
        _trailingDigits = _nextTrailingDigits;
    }

    // The buffer with room for length bytes, keeping its first `kept` bytes (the part of previous the value reuses).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Room(int kept, int length)
    {
        // DecimalDigits.Write stores 8 bytes at a time: room for a word past the value.
        length += sizeof(ulong);
        if (_bytes.Length < length)
        {
            Grow(kept, length);
        }

        return _bytes;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int kept, int length)
    {
        var larger = new byte[Math.Max(length, 2 * _bytes.Length)];
        _bytes.AsSpan(0, kept).CopyTo(larger);
        _bytes = larger;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CountTrailingDigits()
    {
        var value = new ReadOnlySpan<byte>(_bytes, 0, PreviousLength);
        var stem = value.Length;
        while (stem > 0 && char.IsAsciiDigit((char)value[stem - 1]))
        {
            stem--;
        }

        _trailingDigits = value.Length - stem;
    }
}
