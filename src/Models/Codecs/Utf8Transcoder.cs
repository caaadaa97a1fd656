using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using System.Text.Unicode;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// UTF-16 to UTF-8 for the encoders' strings, a lone surrogate as U+FFFD (as <see cref="Utf8.FromUtf16"/> and
/// <see cref="System.Text.Encoding.UTF8"/> write it). A text of 8 to 32 ASCII chars, every seed-shaped one, is
/// narrowed inline in overlapping vectors that cover it exactly; any other goes to <see cref="Utf8.FromUtf16"/>, whose
/// call and setup cost more than the narrowing for texts this short (docs/results/utf8-transcoding.md).
/// </summary>
internal static class Utf8Transcoder
{
    /// <summary>Writes <paramref name="chars"/> into <paramref name="destination"/>, which has room for 3 bytes a char; returns the bytes written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Write(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        var count = chars.Length;
        if (Vector128.IsHardwareAccelerated && count is >= 8 and <= 32 && destination.Length >= count)
        {
            ref var source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(chars));
            ref var target = ref MemoryMarshal.GetReference(destination);
            var nonAscii = Vector128.Create(unchecked((ushort)~0x7F));
            if (count <= 16)
            {
                var head = Vector128.LoadUnsafe(ref source);
                var tail = Vector128.LoadUnsafe(ref source, (nuint)(count - 8));
                if (((head | tail) & nonAscii) == Vector128<ushort>.Zero)
                {
                    var bytes = Vector128.Narrow(head, tail).AsUInt64();
                    Unsafe.WriteUnaligned(ref target, bytes.ToScalar());
                    Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, count - 8), bytes.GetElement(1));
                    return count;
                }
            }
            else
            {
                var head = Vector128.LoadUnsafe(ref source);
                var headNext = Vector128.LoadUnsafe(ref source, 8);
                var tail = Vector128.LoadUnsafe(ref source, (nuint)(count - 16));
                var tailNext = Vector128.LoadUnsafe(ref source, (nuint)(count - 8));
                if (((head | headNext | tail | tailNext) & nonAscii) == Vector128<ushort>.Zero)
                {
                    Vector128.Narrow(head, headNext).StoreUnsafe(ref target);
                    Vector128.Narrow(tail, tailNext).StoreUnsafe(ref target, (nuint)(count - 16));
                    return count;
                }
            }
        }

        Utf8.FromUtf16(chars, destination, out _, out var written, replaceInvalidSequences: true);
        return written;
    }

    /// <summary>
    /// The UTF-8 length of the first <paramref name="count"/> chars of <paramref name="chars"/>. A prefix of 8 to 32 chars
    /// (every seed-shaped one) is tested for ASCII inline, as the OR of two overlapping vectors that cover it exactly:
    /// Ascii.IsValid is a call, which showed in profiles of encoding a member.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ByteCount(ReadOnlySpan<char> chars, int count)
    {
        ref var first = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(chars));
        if (Vector128.IsHardwareAccelerated && count is >= 8 and <= 16)
        {
            var either = Vector128.LoadUnsafe(ref first) | Vector128.LoadUnsafe(ref first, (nuint)(count - 8));
            if ((either & Vector128.Create(unchecked((ushort)~0x7F))) == Vector128<ushort>.Zero)
            {
                return count;
            }
        }
        else if (Vector256.IsHardwareAccelerated && count is > 16 and <= 32)
        {
            var either = Vector256.LoadUnsafe(ref first) | Vector256.LoadUnsafe(ref first, (nuint)(count - 16));
            if ((either & Vector256.Create(unchecked((ushort)~0x7F))) == Vector256<ushort>.Zero)
            {
                return count;
            }
        }

        return ByteCount(chars[..count]);
    }

    /// <summary>
    /// The UTF-8 length of <paramref name="chars"/>, a lone surrogate as the 3 bytes of U+FFFD, as <see cref="Write"/> writes
    /// it. No inline ASCII test: for paths off the member loop, where inlined vectors would only spend its inline budget.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ByteCount(ReadOnlySpan<char> chars) =>
        Ascii.IsValid(chars) ? chars.Length : Encoding.UTF8.GetByteCount(chars);
}
