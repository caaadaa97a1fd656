using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace WebSerialization.Models.Binary;

/// <summary>
/// A canonical decimal's length, which the decoder holds to the limit before it writes the value, and its ASCII digits,
/// eight at a time. Written here rather than by <c>Utf8Formatter</c>, which measured slower in the binary decoder's
/// member loop (three numbers a member); the measurement is in this file's history.
/// </summary>
internal static class DecimalDigits
{
    /// <summary>How many digits <c>decimal(<paramref name="value"/>)</c> has: 1 for 0 to 9, 20 for the largest values.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Count(ulong value)
    {
        // floor(log10) estimated from the bit length (1233 / 4096 is just above log10 2), then corrected by one compare.
        // 0 counts as 1, which has one digit too; setting the low bit moves no value across a power of ten.
        value |= 1;
        var guess = ((64 - BitOperations.LeadingZeroCount(value)) * 1233) >> 12;
        return guess + 1 - (value < PowersOfTen[guess] ? 1 : 0);
    }

    private static ReadOnlySpan<ulong> PowersOfTen =>
    [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ];

    /// <summary>
    /// Writes the <paramref name="count"/> ASCII digits of <paramref name="value"/> (<see cref="Count"/>) at the start of
    /// <paramref name="destination"/>, which has 8 bytes of room past them: eight digits are made at once in one 64-bit
    /// word and stored whole, so the bytes after the digits are overwritten.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Write(Span<byte> destination, ulong value, int count)
    {
        ref var first = ref MemoryMarshal.GetReference(destination[..(count + sizeof(ulong))]);
        if (count <= 8)
        {
            Store(ref first, (uint)value, count);
            return;
        }

        var low = (uint)(value % 100_000_000);
        value /= 100_000_000;
        if (count <= 16)
        {
            Store(ref first, (uint)value, count - 8);
        }
        else
        {
            Store(ref first, (uint)(value / 100_000_000), count - 16);
            Store(ref Unsafe.Add(ref first, count - 16), (uint)(value % 100_000_000), 8);
        }

        Store(ref Unsafe.Add(ref first, count - 8), low, 8);
    }

    // The last `count` of the eight digits of value (below 10^8), stored from `at` with the 8-byte word they are in.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store(ref byte at, uint value, int count) =>
        Unsafe.WriteUnaligned(ref at, EightDigits(value) >> (8 * (8 - count)));

    // Value (below 10^8) as eight ASCII digits, the first in the lowest byte: split in two 4-digit lanes, each in two
    // 2-digit lanes, each in two 1-digit lanes, dividing by multiplying (exact for these ranges) within each lane.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong EightDigits(uint value)
    {
        ulong fours = (value / 10_000) | ((ulong)(value % 10_000) << 32);
        var hundreds = ((fours * 10_486) >> 20) & 0x0000_007F_0000_007F;
        var twos = hundreds | ((fours - (hundreds * 100)) << 16);
        var tens = ((twos * 103) >> 10) & 0x000F_000F_000F_000F;
        var ones = tens | ((twos - (tens * 10)) << 8);
        return ones + 0x3030_3030_3030_3030;
    }
}
