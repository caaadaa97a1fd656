using System.Runtime.CompilerServices;

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
    static abstract void WriteUtf8(ref BinaryWriter writer, ReadOnlySpan<T> text, int byteCount);
}

/// <summary>A string's chars; a lone surrogate counts and is written as U+FFFD, as Encoding.UTF8 does.</summary>
internal readonly struct Utf16Units : ITextUnits<char>
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TrailingDigits FindDigits(ReadOnlySpan<char> text) => TrailingDigits.Find(text);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong ValueOfLast(ReadOnlySpan<char> text, in TrailingDigits run, int count) => run.ValueOfLast(text, count);

    public static bool IsAsciiDigit(char unit) => char.IsAsciiDigit(unit);

    public static bool IsZero(char unit) => unit == '0';

    // The prefix is counted in UTF-8 bytes, which half a surrogate pair does not have.
    public static int WholeCodePoints(ReadOnlySpan<char> text, int prefix) =>
        prefix > 0 && char.IsHighSurrogate(text[prefix - 1]) ? prefix - 1 : prefix;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Utf8Length(ReadOnlySpan<char> text, int count) => BinaryOrganizationEncoder.PrefixUtf8Length(text, count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteUtf8(ref BinaryWriter writer, ReadOnlySpan<char> text, int byteCount) => writer.WriteUtf8(text, byteCount);
}

/// <summary>A decoder's UTF-8, already well-formed: written as it is.</summary>
internal readonly struct Utf8Units : ITextUnits<byte>
{
    public static TrailingDigits FindDigits(ReadOnlySpan<byte> text) => TrailingDigits.Find(text);

    public static ulong ValueOfLast(ReadOnlySpan<byte> text, in TrailingDigits run, int count) => run.ValueOfLast(text, count);

    public static bool IsAsciiDigit(byte unit) => char.IsAsciiDigit((char)unit);

    public static bool IsZero(byte unit) => unit == '0';

    // A prefix that ends before a continuation byte (10xxxxxx) splits a code point: back up to its first byte.
    public static int WholeCodePoints(ReadOnlySpan<byte> text, int prefix)
    {
        while (prefix > 0 && prefix < text.Length && (text[prefix] & 0xC0) == 0x80)
        {
            prefix--;
        }

        return prefix;
    }

    public static int Utf8Length(ReadOnlySpan<byte> text, int count) => count;

    public static void WriteUtf8(ref BinaryWriter writer, ReadOnlySpan<byte> text, int byteCount) => writer.WriteBytes(text);
}
