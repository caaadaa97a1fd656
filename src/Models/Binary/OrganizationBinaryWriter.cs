using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;
using System.Text.Unicode;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The hot-path byte writer of the binary format: it caches the span the <see cref="IBufferWriter{T}"/> handed out
/// and advances the output only when it needs a new span or is flushed. A caller reserves room with
/// <see cref="Reserve"/> once per member and then writes that member without further capacity checks.
/// </summary>
internal ref struct OrganizationBinaryWriter
{
    // pdep spreads a varint's 7-bit groups in one instruction on every Intel CPU that has it and on AMD from Zen 3
    // (family 19h) on. Zen 1 and 2, and Hygon's chips built on them, run it in microcode at hundreds of cycles for a
    // 56-bit mask, far slower than the shifts. Read once; the JIT then treats it as a constant.
    private static readonly bool HasFastBitDeposit = Bmi2.X64.IsSupported && !IsAmdBeforeZen3();

    private readonly IBufferWriter<byte> _output;
    private Span<byte> _span;
    private int _buffered;
    private long _flushed;

    public OrganizationBinaryWriter(IBufferWriter<byte> output)
    {
        _output = output;
        _span = default;
    }

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _flushed + _buffered;

    /// <summary>Makes sure the next <paramref name="count"/> bytes fit in the cached span.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reserve(int count)
    {
        if ((uint)(_span.Length - _buffered) < (uint)count)
        {
            Refill(count);
        }
    }

    /// <summary>Whether the next <paramref name="count"/> bytes fit in the cached span without a refill.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool HasRoom(long count) => _span.Length - _buffered >= count;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value) => _span[_buffered++] = value;

    /// <summary>
    /// Leaves one byte to be written later with <see cref="PatchByte"/> and returns its position, which stays valid
    /// until the next <see cref="Reserve"/> or <see cref="Flush"/>: only those move to another span.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int SkipByte() => _buffered++;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void PatchByte(int position, byte value) => _span[position] = value;

    /// <summary>varint32: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt32(uint value) => WriteVarUInt64(value);

    /// <summary>varint64: LEB128, 7 bits a byte, least significant group first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteVarUInt64(ulong value)
    {
        if (value < 0x80)
        {
            _span[_buffered++] = (byte)value;
            return;
        }

        WriteMultiByteVarUInt64(value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteDouble(double value)
    {
        BinaryPrimitives.WriteDoubleLittleEndian(_span[_buffered..], value);
        _buffered += sizeof(double);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(_span[_buffered..]);
        _buffered += bytes.Length;
    }

    /// <summary>
    /// Writes <paramref name="chars"/> as UTF-8, which the caller measured as <paramref name="byteCount"/> bytes with
    /// <see cref="System.Text.Encoding.UTF8"/>; both write a lone surrogate as U+FFFD, so the two always agree.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUtf8(ReadOnlySpan<char> chars, int byteCount)
    {
        Utf8.FromUtf16(chars, _span.Slice(_buffered, byteCount), out _, out var written, replaceInvalidSequences: true);
        Debug.Assert(written == byteCount, "Encoding.UTF8 and Utf8.FromUtf16 measured the text differently.");
        _buffered += byteCount;
    }

    /// <summary>Hands the buffered bytes to the output.</summary>
    public void Flush()
    {
        if (_buffered > 0)
        {
            _output.Advance(_buffered);
            _flushed += _buffered;
            _buffered = 0;
        }

        _span = default;
    }

    // Up to 8 bytes (values below 2^56) are spread into 7-bit groups in a register and stored at once: no loop whose
    // exit the branch predictor has to guess, which matters for the 4- and 5-byte varints that random numbers take.
    // A seed-shaped member writes four of these, so the spread is one pdep where that is fast, and otherwise halves
    // the bit fields three times (28, 14, then 7 bits) rather than moving each of the 8 groups alone (12 operations
    // instead of 23). Inlined too: the calls measured about 5 % of encoding.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteMultiByteVarUInt64(ulong value)
    {
        var destination = _span[_buffered..];
        if (value < (1UL << 56) && destination.Length >= sizeof(ulong))
        {
            ulong groups;
            if (HasFastBitDeposit)
            {
                groups = Bmi2.X64.ParallelBitDeposit(value, 0x7F7F_7F7F_7F7F_7F7F);
            }
            else
            {
                groups = (value & 0x0FFF_FFFF) | ((value & 0x00FF_FFFF_F000_0000) << 4);
                groups = (groups & 0x0000_3FFF_0000_3FFF) | ((groups & 0x0FFF_C000_0FFF_C000) << 2);
                groups = (groups & 0x007F_007F_007F_007F) | ((groups & 0x3F80_3F80_3F80_3F80) << 1);
            }

            // The highest non-zero group is the last byte; every byte before it has its continuation bit set.
            var length = (BitOperations.Log2(groups) >> 3) + 1;
            var continuations = 0x8080_8080_8080_8080UL & ((1UL << (8 * (length - 1))) - 1);
            BinaryPrimitives.WriteUInt64LittleEndian(destination, groups | continuations);
            _buffered += length;
            return;
        }

        var position = 0;
        while (value >= 0x80)
        {
            destination[position++] = (byte)(value | 0x80);
            value >>= 7;
        }

        destination[position++] = (byte)value;
        _buffered += position;
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

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Refill(int count)
    {
        Flush();
        _span = _output.GetSpan(count);
        if (_span.Length < count)
        {
            BinaryThrowHelper.ThrowOutputTooSmall(count, _span.Length);
        }
    }
}
