using System.Runtime.CompilerServices;

namespace WebSerialization.Models.Binary;

/// <summary>
/// A decoded member text (docs/binary-format.md, Text) and what the next member's text needs of it: its UTF-8 length
/// and how many digits it ends with, -1 when not counted (see <see cref="TextFieldHistory"/>).
/// </summary>
internal readonly record struct DecodedText(string? Value, int Utf8Length, int TrailingDigits)
{
    // Inlined by request, so that a null text costs no call in the member readers.
    public static DecodedText Null
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(null, -1, 0);
    }
}
