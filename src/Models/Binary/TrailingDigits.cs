using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The run of ASCII digits at the end of a text, and the values of its last digits, as the binary encoder's text
/// planning needs them. A digit-at-a-time loop from the end cost about a third of encoding a seed-shaped member: its
/// exit depends on the number's length, which random numbers make unpredictable, and each digit waits on a multiply.
/// So the last 16 chars (8 in shorter texts) are tested in one vector compare, the run's length is counted in the
/// resulting bit mask, and the digits are combined in pairs, fours and eights by multiply-adds: no loop and no
/// data-dependent branch. Runs the vector cannot settle (texts shorter than 8 chars, runs as long as the vector) take
/// the loop.
/// </summary>
internal readonly struct TrailingDigits
{
    private const int VectorChars = 16;
    private const int HalfVectorChars = 8;

    // The last 16 chars less '0', narrowed to bytes (the text's last char in lane 15): digit values in the run's lanes,
    // anything outside it. Default when the loop found the run.
    private readonly Vector128<byte> _digits;
    private readonly bool _vectorized;

    private TrailingDigits(int length, ulong number, Vector128<byte> digits, bool vectorized)
    {
        Length = length;
        Number = number;
        _digits = digits;
        _vectorized = vectorized;
    }

    /// <summary>How many chars at the end of the text are ASCII digits.</summary>
    public int Length { get; }

    /// <summary>The value of the run's last <see cref="BinaryWire.MaxNumberDigits"/> digits at most.</summary>
    public ulong Number { get; }

    /// <summary>Finds the run of digits at the end of <paramref name="utf8"/>, a decoder's text (conversions).</summary>
    /// <remarks>
    /// As for chars, with the bytes loaded as they are: in UTF-8 a byte 0x30-0x39 is always the ASCII digit (every byte
    /// of a longer sequence is 0x80 or above), so no narrowing is needed.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TrailingDigits Find(ReadOnlySpan<byte> utf8)
    {
        if (Vector128.IsHardwareAccelerated && utf8.Length >= HalfVectorChars)
        {
            ref var start = ref MemoryMarshal.GetReference(utf8);

            // The last 16 bytes, or the last 8 behind 8 lanes that are not digits: a run as long as what was loaded may
            // go on, and is left to the loop unless it is the whole text.
            var loaded = utf8.Length >= VectorChars ? VectorChars : HalfVectorChars;
            var bytes = loaded == VectorChars
                ? Vector128.LoadUnsafe(ref Unsafe.Add(ref start, utf8.Length - VectorChars))
                : Vector128.Create(0UL, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, utf8.Length - HalfVectorChars))).AsByte();
            var values = bytes - Vector128.Create((byte)'0');
            var digitLanes = Vector128.LessThanOrEqual(values, Vector128.Create((byte)9));
            var isDigit = digitLanes.ExtractMostSignificantBits();
            var length = BitOperations.LeadingZeroCount((~isDigit << VectorChars) | (1u << (VectorChars - 1)));
            if (length < loaded || utf8.Length == loaded)
            {
                var number = BitOperations.PopCount(isDigit) == length ? ValueOf(values & digitLanes) : ValueOfLast(values, length);
                return new TrailingDigits(length, number, values, vectorized: true);
            }
        }

        return FindOneByOne(utf8);
    }

    /// <summary>The value of the last <paramref name="count"/> digits of <paramref name="utf8"/>, the text this run was found in.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong ValueOfLast(ReadOnlySpan<byte> utf8, int count)
    {
        if (count == Length)
        {
            return Number;
        }

        return _vectorized ? ValueOfLast(_digits, count) : ParseDigits(utf8[^count..]);
    }

    /// <summary>Finds the run of digits at the end of <paramref name="chars"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TrailingDigits Find(ReadOnlySpan<char> chars)
    {
        // Digits are tested as UTF-16 units, before any narrowing, so that a char such as U+0130 cannot pass for 0x30.
        if (Vector256.IsHardwareAccelerated && chars.Length >= VectorChars)
        {
            ref var last16 = ref Unsafe.As<char, ushort>(ref Unsafe.Add(ref MemoryMarshal.GetReference(chars), chars.Length - VectorChars));
            var values = Vector256.LoadUnsafe(ref last16) - Vector256.Create((ushort)'0');
            var digitLanes = Vector256.LessThanOrEqual(values, Vector256.Create((ushort)9));
            var isDigit = digitLanes.ExtractMostSignificantBits();
            var length = BitOperations.LeadingZeroCount((~isDigit << VectorChars) | (1u << (VectorChars - 1)));
            if (length < VectorChars || chars.Length == VectorChars)
            {
                var digits = Narrow(values);

                // When no digit precedes the run among these chars, clearing the lanes that are not digits leaves just
                // the run: the number then does not wait for the run's length to be counted and a mask to be loaded.
                var number = BitOperations.PopCount(isDigit) == length ? ValueOf(Narrow(values & digitLanes)) : ValueOfLast(digits, length);
                return new TrailingDigits(length, number, digits, vectorized: true);
            }
        }
        else if (Vector128.IsHardwareAccelerated && chars.Length >= HalfVectorChars)
        {
            // The last 8 chars, behind 8 lanes that are not digits: the run is found when it is shorter than 8.
            ref var last8 = ref Unsafe.As<char, ushort>(ref Unsafe.Add(ref MemoryMarshal.GetReference(chars), chars.Length - HalfVectorChars));
            var values = Vector128.LoadUnsafe(ref last8) - Vector128.Create((ushort)'0');
            var isDigit = Vector128.LessThanOrEqual(values, Vector128.Create((ushort)9)).ExtractMostSignificantBits();
            var length = BitOperations.LeadingZeroCount((~isDigit << (32 - HalfVectorChars)) | (1u << (31 - HalfVectorChars)));
            if (length < HalfVectorChars || chars.Length == HalfVectorChars)
            {
                var digits = Vector128.Narrow(Vector128<ushort>.Zero, values);
                return new TrailingDigits(length, ValueOfLast(digits, length), digits, vectorized: true);
            }
        }

        return FindOneByOne(chars);
    }

    /// <summary>
    /// Whether the last <paramref name="count"/> chars of <paramref name="chars"/> are ASCII digits, and their value, in
    /// one vector test: the encoder's check of a text it expects to be the previous text's stem and a number. False
    /// also when <paramref name="count"/> is not 1 to 16 or the text is shorter than the vector; <see cref="Find(ReadOnlySpan{char})"/> settles those.
    /// </summary>
    /// <remarks>
    /// The chars are narrowed with unsigned saturation before the test, so a char above U+00FF becomes 0xFF and none
    /// but '0' to '9' passes; texts of 8 to 15 chars load their last 8 into the upper half, behind lanes of 0.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryParseLast(ReadOnlySpan<char> chars, int count, out ulong number)
    {
        if (Sse2.IsSupported && chars.Length >= HalfVectorChars && (uint)(count - 1) < VectorChars)
        {
            ref var end = ref Unsafe.As<char, short>(ref Unsafe.Add(ref MemoryMarshal.GetReference(chars), chars.Length));
            var upper = Vector128.LoadUnsafe(ref Unsafe.Subtract(ref end, HalfVectorChars));
            var lower = chars.Length >= VectorChars ? Vector128.LoadUnsafe(ref Unsafe.Subtract(ref end, VectorChars)) : Vector128<short>.Zero;
            var values = Sse2.PackUnsignedSaturate(lower, upper) - Vector128.Create((byte)'0');
            var isDigit = Vector128.LessThanOrEqual(values, Vector128.Create((byte)9)).ExtractMostSignificantBits();
            var wanted = 0xFFFFu >> (VectorChars - count) << (VectorChars - count);
            number = ValueOfLast(values, count);
            return (isDigit & wanted) == wanted;
        }

        number = 0;
        return false;
    }

    /// <summary>
    /// The value of the last <paramref name="count"/> digits of <paramref name="chars"/>, the text this run was found
    /// in; <paramref name="count"/> is at most <see cref="Length"/> and at most <see cref="BinaryWire.MaxNumberDigits"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong ValueOfLast(ReadOnlySpan<char> chars, int count)
    {
        if (count == Length)
        {
            return Number;
        }

        return _vectorized ? ValueOfLast(_digits, count) : ParseDigits(chars[^count..]);
    }

    // Lanes below 16 - count are cleared, so they add nothing. Where SSE4.1 is missing the two halves are combined as
    // 8-digit numbers in 64-bit registers instead.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ValueOfLast(Vector128<byte> digits, int count) =>
        ValueOf(digits & Vector128.Create(LastLanes.Slice(count, VectorChars)));

    // The number whose 16 decimal digits are the lanes of kept, most significant in lane 0.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ValueOf(Vector128<byte> kept)
    {
        if (Ssse3.IsSupported && Sse41.IsSupported)
        {
            var pairs = Ssse3.MultiplyAddAdjacent(kept, Vector128.Create((sbyte)10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1));
            var quads = Sse2.MultiplyAddAdjacent(pairs, Vector128.Create((short)100, 1, 100, 1, 100, 1, 100, 1));
            var packed = Sse41.PackUnsignedSaturate(quads, quads).AsInt16();
            var eights = Sse2.MultiplyAddAdjacent(packed, Vector128.Create((short)10_000, 1, 10_000, 1, 10_000, 1, 10_000, 1)).AsUInt64().ToScalar();
            return ((eights & uint.MaxValue) * 100_000_000) + (eights >> 32);
        }

        var halves = kept.AsUInt64();
        return (ValueOfEight(halves.GetElement(0)) * 100_000_000) + ValueOfEight(halves.GetElement(1));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> Narrow(Vector256<ushort> values) =>
        Avx512BW.VL.IsSupported ? Avx512BW.VL.ConvertToVector128Byte(values) : Vector128.Narrow(values.GetLower(), values.GetUpper());

    // 16 cleared lanes, then 16 set: the 16 bytes from offset n keep the last n lanes.
    private static ReadOnlySpan<byte> LastLanes =>
    [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ];

    /// <summary>
    /// The number whose 8 decimal digits are the bytes of <paramref name="digits"/>, most significant in the lowest
    /// byte (memory order), each 0-9. Pairs, then quadruples, are combined with multiplies that cannot carry between
    /// lanes (Lemire, "Fast parsing of 8 decimal digits").
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ValueOfEight(ulong digits)
    {
        digits = (digits * 10) + (digits >> 8);
        const ulong EvenPairs = 0x0000_00FF_0000_00FF;
        return (((digits & EvenPairs) * (100 + (1_000_000UL << 32))) + (((digits >> 16) & EvenPairs) * (1 + (10_000UL << 32)))) >> 32;
    }

    private static TrailingDigits FindOneByOne<T>(ReadOnlySpan<T> chars)
        where T : unmanaged, IBinaryInteger<T>
    {
        var length = 0;
        ulong number = 0;
        ulong scale = 1;
        while (length < chars.Length)
        {
            var digit = uint.CreateTruncating(chars[chars.Length - 1 - length]) - '0';
            if (digit > 9)
            {
                break;
            }

            if (length < BinaryWire.MaxNumberDigits)
            {
                number += digit * scale;
                scale *= 10;
            }

            length++;
        }

        return new TrailingDigits(length, number, default, vectorized: false);
    }

    private static ulong ParseDigits<T>(ReadOnlySpan<T> digits)
        where T : unmanaged, IBinaryInteger<T>
    {
        ulong number = 0;
        foreach (var digit in digits)
        {
            number = (number * 10) + (uint.CreateTruncating(digit) - '0');
        }

        return number;
    }
}
