namespace WebSerialization.Models.Binary;

/// <summary>
/// What the decoder knows about one member field's previous value beyond the string itself, which is the last decoded
/// member's: its UTF-8 length (prefix lengths and limits count bytes) and, once someone needed it, the number of ASCII
/// digits it ends with ("stem(previous)" of Text kind 3). Equal UTF-8 and UTF-16 lengths mean the value is ASCII, so a
/// prefix of it in bytes is the same prefix in chars.
/// </summary>
internal struct TextFieldHistory
{
    private int _trailingDigits;

    /// <summary>The previous value's UTF-8 length; 0 when it was null or there was no previous member.</summary>
    public int Utf8Length { get; private set; }

    /// <summary>How many ASCII digits end <paramref name="previous"/>, the previous value; counted once per value.</summary>
    public int TrailingDigits(string? previous)
    {
        // 0 is the state of a new decoder (no previous member, null texts), which is right: an empty value has no digits.
        if (_trailingDigits < 0)
        {
            var chars = previous.AsSpan();
            var stem = chars.Length;
            while (stem > 0 && char.IsAsciiDigit(chars[stem - 1]))
            {
                stem--;
            }

            _trailingDigits = chars.Length - stem;
        }

        return _trailingDigits;
    }

    /// <summary>
    /// Makes the decoded value the previous one, once its whole member is decoded: <paramref name="utf8Length"/> is -1
    /// for null, <paramref name="trailingDigits"/> -1 when not known.
    /// </summary>
    public void Commit(int utf8Length, int trailingDigits)
    {
        Utf8Length = Math.Max(utf8Length, 0);
        _trailingDigits = utf8Length < 0 ? 0 : trailingDigits;
    }
}
