namespace WebSerialization.Models.Binary;

/// <summary>
/// The two forms in which a text reaches the binary encoder: a string's UTF-16 chars (what a download writes) and a
/// decoder's well-formed UTF-8 (what a conversion writes). The encoder plans a text once, over either form, so both
/// give the same bytes for the same text.
/// </summary>
internal interface ITextUnits<T>
    where T : unmanaged, IEquatable<T>
{
    /// <summary>The run of ASCII digits at the end of <paramref name="text"/>.</summary>
    static abstract TrailingDigits FindDigits(ReadOnlySpan<T> text);

    /// <summary>The value of the last <paramref name="count"/> digits of <paramref name="text"/>, whose run is <paramref name="run"/>.</summary>
    static abstract ulong ValueOfLast(ReadOnlySpan<T> text, in TrailingDigits run, int count);

    /// <summary>Whether <paramref name="unit"/> is an ASCII digit, or the digit 0.</summary>
    static abstract bool IsAsciiDigit(T unit);

    static abstract bool IsZero(T unit);

    /// <summary><paramref name="prefix"/> units shared with another text, less any part of a code point they split.</summary>
    static abstract int WholeCodePoints(ReadOnlySpan<T> text, int prefix);

    /// <summary>The UTF-8 length of the first <paramref name="count"/> units of <paramref name="text"/>.</summary>
    static abstract int Utf8Length(ReadOnlySpan<T> text, int count);

    /// <summary>Writes <paramref name="text"/>, measured as <paramref name="byteCount"/> UTF-8 bytes, as UTF-8.</summary>
    static abstract void WriteUtf8(ref BinaryWireWriter writer, ReadOnlySpan<T> text, int byteCount);
}
