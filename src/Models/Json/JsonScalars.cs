using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// The JSON form's scalar values as <see cref="JsonOrganizationDecoder"/> reads them: numbers that fit their type
/// exactly (<c>1.0</c> is not an int32), a double that is finite or one of the strings <c>"NaN"</c>, <c>"Infinity"</c>,
/// <c>"-Infinity"</c>; and the Malformed errors for a token that is not what its place needs. Each takes the payload
/// offset of the span the reader reads, to which its positions are relative.
/// </summary>
internal static class JsonScalars
{
    public static int ReadInt32(ref Utf8JsonReader reader, long offset)
    {
        if (reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out var value))
        {
            return value;
        }

        Unexpected(ref reader, offset, "an int32");
        return 0;
    }

    public static long ReadInt64(ref Utf8JsonReader reader, long offset)
    {
        if (reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out var value))
        {
            return value;
        }

        Unexpected(ref reader, offset, "an int64");
        return 0;
    }

    public static double ReadDouble(ref Utf8JsonReader reader, long offset)
    {
        // The reader turns a literal too large for a double into an infinity; JSON spells infinities as strings.
        if (reader.TokenType == JsonTokenType.Number && reader.TryGetDouble(out var value) && double.IsFinite(value))
        {
            return value;
        }

        if (reader.TokenType == JsonTokenType.String)
        {
            if (reader.ValueTextEquals("NaN"u8))
            {
                return double.NaN;
            }

            if (reader.ValueTextEquals("Infinity"u8))
            {
                return double.PositiveInfinity;
            }

            if (reader.ValueTextEquals("-Infinity"u8))
            {
                return double.NegativeInfinity;
            }
        }

        Unexpected(ref reader, offset, "a finite number, \"NaN\", \"Infinity\" or \"-Infinity\"");
        return 0;
    }

    /// <summary>Malformed unless <paramref name="condition"/>: the token is not <paramref name="expected"/>.</summary>
    public static void Require(ref Utf8JsonReader reader, long offset, bool condition, string expected)
    {
        if (!condition)
        {
            Unexpected(ref reader, offset, expected);
        }
    }

    [DoesNotReturn]
    public static void Unexpected(ref Utf8JsonReader reader, long offset, string expected) =>
        WireFormatThrow.Malformed(offset + reader.TokenStartIndex, $"Expected {expected}, found {reader.TokenType}.");

    /// <summary>The property name the reader is on came before in the same object.</summary>
    [DoesNotReturn]
    public static void Duplicate(ref Utf8JsonReader reader, long offset) =>
        WireFormatThrow.Malformed(offset + reader.TokenStartIndex, $"The property '{reader.GetString()}' appears twice.");
}
