using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Unicode;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// A member's text as a decoder hands it over: null, or well-formed UTF-8 that lives in the decoder's buffers only
/// until the sink returns. A sink that keeps a text copies it, or makes a string with <see cref="ToStringOrNull"/>.
/// </summary>
public readonly ref struct Utf8Text
{
    private readonly bool _isPresent;

    /// <summary>A text made of <paramref name="utf8"/>, which the caller has checked is well-formed UTF-8.</summary>
    public Utf8Text(ReadOnlySpan<byte> utf8)
    {
        Bytes = utf8;
        _isPresent = true;
    }

    /// <summary>The null text (also <c>default</c>).</summary>
    public static Utf8Text Null => default;

    /// <summary>The UTF-8 bytes; empty for null.</summary>
    public ReadOnlySpan<byte> Bytes { get; }

    /// <summary>Whether the text is null (as opposed to empty).</summary>
    public bool IsNull => !_isPresent;

    /// <summary>The text as a new string, or null.</summary>
    public string? ToStringOrNull() => _isPresent ? Encoding.UTF8.GetString(Bytes) : null;

    /// <summary>Whether <paramref name="utf8"/> is well-formed UTF-8: the check a decoder makes before it hands a text over.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsWellFormed(ReadOnlySpan<byte> utf8) => IsShortAscii(utf8) || Utf8.IsValid(utf8);

    // A short ASCII text, the usual member text, is found in a few 8-byte loads (the last one overlapping), where
    // Utf8.IsValid's setup for long texts costs more than the check itself; anything else goes to Utf8.IsValid.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsShortAscii(ReadOnlySpan<byte> utf8)
    {
        const ulong HighBits = 0x8080_8080_8080_8080UL;
        var length = utf8.Length;
        ref var start = ref MemoryMarshal.GetReference(utf8);
        if (length >= sizeof(ulong))
        {
            if (length > 4 * sizeof(ulong))
            {
                return false;
            }

            var bits = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, length - sizeof(ulong)));
            for (var index = 0; index < length - sizeof(ulong); index += sizeof(ulong))
            {
                bits |= Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, index));
            }

            return (bits & HighBits) == 0;
        }

        var any = 0;
        for (var index = 0; index < length; index++)
        {
            any |= Unsafe.Add(ref start, index);
        }

        return any < 0x80;
    }
}
