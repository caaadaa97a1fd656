using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

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
    public static int Utf8Length(ReadOnlySpan<char> text, int count) => Utf8Transcoder.ByteCount(text, count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteUtf8(ref BinaryWireWriter writer, ReadOnlySpan<char> text, int byteCount) => writer.WriteUtf8(text, byteCount);
}
