using System.Numerics;
using System.Runtime.CompilerServices;

namespace WebSerialization.Models.Binary;

/// <summary>The length of a canonical decimal, which the decoder needs before it allocates the string that holds it.</summary>
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
}
