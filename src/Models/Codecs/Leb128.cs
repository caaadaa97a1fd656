using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// Unsigned LEB128, the varint of protobuf and of the binary format: 7 bits a byte, least significant group first,
/// the high bit set on every byte but the last. Always the shortest form, as both formats' writers choose.
/// </summary>
internal static class Leb128
{
    /// <summary>The most bytes of a varint that holds 32 bits, and the most its 5th byte may hold.</summary>
    public const int MaxBytes32 = 5;
    public const byte LastByteMax32 = 0x0F;

    /// <summary>The most bytes of a varint that holds 64 bits, and the most its 10th byte may hold.</summary>
    public const int MaxBytes64 = 10;
    public const byte LastByteMax64 = 0x01;

    // pdep spreads a varint's 7-bit groups in one instruction, and pext packs them back, on every Intel CPU that has
    // them and on AMD from Zen 3 (family 19h) on. Zen 1 and 2, and Hygon's chips built on them, run both in microcode
    // at hundreds of cycles for a 56-bit mask, far slower than the shifts. Read once; the JIT then treats it as a constant.
    private static readonly bool HasFastBitDepositAndExtract = Bmi2.X64.IsSupported && !IsAmdBeforeZen3();

    /// <summary>Writes <paramref name="value"/> at the start of <paramref name="destination"/>.</summary>
    /// <returns>The number of bytes written, 1 to 10.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Write(Span<byte> destination, ulong value)
    {
        if (value < 0x80)
        {
            destination[0] = (byte)value;
            return 1;
        }

        return WriteMultiByte(destination, value);
    }

    /// <summary>The number of bytes <paramref name="value"/> takes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Length(ulong value) => (BitOperations.Log2(value | 1) / 7) + 1;

    // Up to 8 bytes (values below 2^56) are spread into 7-bit groups in a register and stored at once: no loop whose
    // exit the branch predictor has to guess, which matters for the 4- and 5-byte varints that random numbers take.
    // A seed-shaped member writes four of these, so the spread is one pdep where that is fast, and otherwise halves
    // the bit fields three times (28, 14, then 7 bits) rather than moving each of the 8 groups alone (12 operations
    // instead of 23). Inlined, since every member writes several.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteMultiByte(Span<byte> destination, ulong value)
    {
        if (value < (1UL << 56) && destination.Length >= sizeof(ulong))
        {
            var groups = HasFastBitDepositAndExtract ? Bmi2.X64.ParallelBitDeposit(value, 0x7F7F_7F7F_7F7F_7F7F) : SpreadGroups(value);

            // The highest non-zero group is the last byte, and every byte before it has its continuation bit set: with
            // z leading zero bits that is byte 7 - z / 8, and shifting the bits of bytes 0..6 right by z / 8 bytes
            // leaves them on exactly the bytes below it.
            var leadingZeros = BitOperations.LeadingZeroCount(groups);
            BinaryPrimitives.WriteUInt64LittleEndian(destination, groups | (0x0080_8080_8080_8080UL >> (leadingZeros & ~7)));
            return 8 - (leadingZeros >> 3);
        }

        var written = 0;
        while (value >= 0x80)
        {
            destination[written++] = (byte)(value | 0x80);
            value >>= 7;
        }

        destination[written++] = (byte)value;
        return written;
    }

    /// <summary>
    /// A minimal varint that ends within the 8 bytes at <paramref name="bytes"/>[<paramref name="at"/>], which the
    /// caller guarantees are there, within <paramref name="maxBytes"/> and <paramref name="lastByteMax"/>; false, having
    /// moved nothing, for anything else, which the byte-by-byte path then rejects or accepts.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadShort(ref byte bytes, ref int at, int maxBytes, byte lastByteMax, out ulong value)
    {
        var word = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref bytes, at));
        if ((word & 0x80) == 0)
        {
            value = word & 0x7F;
            at++;
            return true;
        }

        // The first byte without 0x80 is found in a mask, and the 7-bit groups are packed together by shifts.
        var ends = ~word & 0x8080_8080_8080_8080UL;
        var length = (BitOperations.TrailingZeroCount(ends) >> 3) + 1;
        var lastByte = (byte)(word >> (8 * (length - 1)));
        if (ends == 0 || lastByte == 0 || length > maxBytes || (length == maxBytes && lastByte > lastByteMax))
        {
            value = 0;
            return false;
        }

        var groups = word & (ulong.MaxValue >> (64 - (8 * length)));
        value = HasFastBitDepositAndExtract ? Bmi2.X64.ParallelBitExtract(groups, 0x7F7F_7F7F_7F7F_7F7F) : PackGroups(groups);
        at += length;
        return true;
    }

    /// <summary>A number below 2^56 as eight bytes of 7-bit groups, least significant first, high bits clear: pdep without pdep.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static ulong SpreadGroups(ulong value)
    {
        var groups = (value & 0x0FFF_FFFF) | ((value & 0x00FF_FFFF_F000_0000) << 4);
        groups = (groups & 0x0000_3FFF_0000_3FFF) | ((groups & 0x0FFF_C000_0FFF_C000) << 2);
        return (groups & 0x007F_007F_007F_007F) | ((groups & 0x3F80_3F80_3F80_3F80) << 1);
    }

    /// <summary>Up to eight bytes of 7-bit groups, least significant first, packed into one number (continuation bits dropped): pext without pext.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static ulong PackGroups(ulong bytes)
    {
        bytes &= 0x7F7F_7F7F_7F7F_7F7FUL;
        bytes = ((bytes & 0x7F00_7F00_7F00_7F00UL) >> 1) | (bytes & 0x007F_007F_007F_007FUL);
        bytes = ((bytes & 0x3FFF_0000_3FFF_0000UL) >> 2) | (bytes & 0x0000_3FFF_0000_3FFFUL);
        return ((bytes & 0x0FFF_FFFF_0000_0000UL) >> 4) | (bytes & 0x0000_0000_0FFF_FFFFUL);
    }

    private static bool IsAmdBeforeZen3()
    {
        var (_, vendor0, vendor2, vendor1) = X86Base.CpuId(0, 0);
        var isAmd = (vendor0, vendor1, vendor2) is (0x6874_7541, 0x6974_6E65, 0x444D_4163) // "Auth" "enti" "cAMD"
            or (0x6F67_7948, 0x6E65_476E, 0x656E_6975); // "Hygo" "nGen" "uine"
        var signature = X86Base.CpuId(1, 0).Eax;
        var family = (signature >> 8) & 0xF;
        if (family == 0xF)
        {
            family += (signature >> 20) & 0xFF;
        }

        return isAmd && family < 0x19;
    }
}
