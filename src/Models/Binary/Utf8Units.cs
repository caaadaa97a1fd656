namespace WebSerialization.Models.Binary;

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

    public static void WriteUtf8(ref BinaryWireWriter writer, ReadOnlySpan<byte> text, int byteCount) => writer.WriteBytes(text);
}
