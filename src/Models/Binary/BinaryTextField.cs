using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Text.Unicode;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// One member text field while a payload is read: section Text of docs/binary-format.md. It holds the previous
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
        Utf8Formatter.TryFormat(number, Room(stem, length)[stem..length], out _);
        _nextLength = length;
        _nextTrailingDigits = digits;
    }

    /// <summary>
    /// "kind 1: previous[0 .. prefixLength] + text, followed by decimal(number) when the flag says a number follows";
    /// "kind 2: previous[0 .. prefixLength] + decimal(number)". The caller held <paramref name="length"/> to the limit.
    /// False when the value is not well-formed UTF-8: a prefix may end inside a sequence that the text completes, so
    /// then the whole value is checked; otherwise the text alone.
    /// </summary>
    public bool TrySetNextPrefixed(int prefix, ReadOnlySpan<byte> text, bool hasNumber, ulong number, int length)
    {
        var endsOnCodePoint = prefix == PreviousLength || (_bytes[prefix] & 0xC0) != 0x80;
        var next = Room(prefix, length);
        text.CopyTo(next[prefix..]);
        if (hasNumber)
        {
            Utf8Formatter.TryFormat(number, next[(prefix + text.Length)..length], out _);
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
