using System.Buffers;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// The common case of reading a member: one written as our encoder and System.Text.Json write it by default, with no
/// whitespace and no escapes, its properties in declaration order and its numbers whole, straight from the bytes:
/// <c>,{"id":1,"name":"a","description":null,"address":"b","value":2,"updateTime":3}</c> after the previous member.
/// It takes a member only when the whole of it is in the span and every part has exactly that shape, and takes
/// nothing of a member that differs in any way (whitespace, escapes, another order, a fraction, a long number, a text
/// over the limit or not UTF-8): the decoder's <see cref="System.Text.Json.Utf8JsonReader"/> reads that member with
/// every rule, so what is accepted, what is refused and at which offset do not depend on this path. Measured reason
/// for not leaving every member to the reader: the JSON upload in docs/results/uploads.md.
/// </summary>
internal static class JsonMemberFastPath
{
    // What a string's content may not hold for this path: its end, an escape, or a control character (which JSON refuses).
    private static readonly SearchValues<byte> StringStops = SearchValues.Create([(byte)'"', (byte)'\\', .. Enumerable.Range(0, 0x20).Select(b => (byte)b)]);

    // Whole numbers with at most this many digits are exactly a double, and print back as they are read.
    private const int MaxExactDoubleDigits = 15;

    /// <summary>
    /// Reads the member that starts at <paramref name="span"/>'s first byte, the comma after the previous member;
    /// false, having read nothing, when the member is not whole in the span or not of the shape this path takes.
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> span, int maxStringBytes, out MemberView member, out int length)
    {
        member = default;
        length = 0;
        var position = 0;
        if (!Literal(span, ref position, ",{\"id\":"u8)
            || !WholeNumber(span, ref position, 10, out var id, out _) || id is < int.MinValue or > int.MaxValue
            || !Literal(span, ref position, ",\"name\":"u8)
            || !Text(span, ref position, maxStringBytes, out var name)
            || !Literal(span, ref position, ",\"description\":"u8)
            || !Text(span, ref position, maxStringBytes, out var description)
            || !Literal(span, ref position, ",\"address\":"u8)
            || !Text(span, ref position, maxStringBytes, out var address)
            || !Literal(span, ref position, ",\"value\":"u8)
            || !WholeNumber(span, ref position, MaxExactDoubleDigits, out var value, out var negative)
            || !Literal(span, ref position, ",\"updateTime\":"u8)
            || !WholeNumber(span, ref position, 19, out var updateTime, out _)
            || !Literal(span, ref position, "}"u8))
        {
            return false;
        }

        // "-0" is the double -0.0, which no long holds.
        member = new MemberView((int)id, name, description, address, value == 0 && negative ? -0.0 : value, updateTime);
        length = position;
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Literal(ReadOnlySpan<byte> span, scoped ref int position, ReadOnlySpan<byte> literal)
    {
        if (!span[position..].StartsWith(literal))
        {
            return false;
        }

        position += literal.Length;
        return true;
    }

    // JSON's integer form, -?(0|[1-9][0-9]*), of at most maxDigits digits and within a long; the byte after it is left
    // to the literal that follows, so "1.5", "1e3" and "01" are not taken.
    private static bool WholeNumber(ReadOnlySpan<byte> span, ref int position, int maxDigits, out long value, out bool negative)
    {
        value = 0;
        var index = position;
        negative = index < span.Length && span[index] == '-';
        if (negative)
        {
            index++;
        }

        var first = index;
        ulong magnitude = 0;
        while (index < span.Length && index - first <= maxDigits)
        {
            var digit = (uint)(span[index] - '0');
            if (digit > 9)
            {
                break;
            }

            magnitude = (magnitude * 10) + digit;
            index++;
        }

        var digits = index - first;
        if (digits == 0 || digits > maxDigits || (digits > 1 && span[first] == '0')
            || magnitude > (negative ? (ulong)long.MaxValue + 1 : (ulong)long.MaxValue))
        {
            return false;
        }

        value = negative ? (long)(0 - magnitude) : (long)magnitude;
        position = index;
        return true;
    }

    // null, or a string with no escape and no control character, of at most maxStringBytes bytes of well-formed UTF-8.
    private static bool Text(ReadOnlySpan<byte> span, scoped ref int position, int maxStringBytes, out Utf8Text text)
    {
        text = Utf8Text.Null;
        if (Literal(span, ref position, "null"u8))
        {
            return true;
        }

        if (position >= span.Length || span[position] != '"')
        {
            return false;
        }

        var content = span[(position + 1)..];
        var end = content.IndexOfAny(StringStops);
        if (end < 0 || content[end] != '"' || end > maxStringBytes || !Utf8Text.IsWellFormed(content[..end]))
        {
            return false;
        }

        text = new Utf8Text(content[..end]);
        position += end + 2;
        return true;
    }
}
