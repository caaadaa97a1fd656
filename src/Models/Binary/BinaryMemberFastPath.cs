using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The common case of reading a Member (docs/binary-format.md, Member, with Text kinds 0 and 3 of section Text), in
/// one loop over one span: members whose texts are null or "stem(previous) + decimal(number)" and whose varints each
/// end within 8 bytes, while at least <see cref="Window"/> bytes remain (so no read needs a bounds check). It stops,
/// having committed nothing for that member, at the first member it does not take: other text kinds, longer varints,
/// anything the spec rejects, or too few bytes. The decoder's member reader then reads that member, and either throws
/// what Reading says or decodes it as usual, so errors and their offsets are the same whichever reader meets them.
/// </summary>
internal static class BinaryMemberFastPath
{
    // The loop runs while this many bytes remain, enough for the most a member it takes can read: flags, an id delta,
    // three numbers and a time delta of up to 8 bytes each, and a value of 8 bytes, each varint read as one 8-byte load
    // (1 + 5 * 8 + 8 = 49).
    private const int Window = 64;

    /// <summary>
    /// Decodes members from <paramref name="position"/> in <paramref name="span"/> to the decoder's sink, each against
    /// <paramref name="previous"/>, until the declared count is reached or a member is left to the member reader;
    /// returns the position after the last member taken.
    /// </summary>
    public static int DecodeMembers(BinaryOrganizationDecoder decoder, ReadOnlySpan<byte> span, int position, ref BinaryOrganizationDecoder.PreviousMember previous)
    {
        var last = span.Length - Window;
        var maxBytes = decoder.MaxStringBytes;
        ref var bytes = ref MemoryMarshal.GetReference(span);
        while (position <= last && decoder.ExpectsMember)
        {
            var at = position;
            int flags = Unsafe.Add(ref bytes, at++);

            // Each 2-bit kind is 0 (null) or 3 (stem and number) when its two bits are equal.
            var kinds = flags >> BinaryWire.NameKindShift;
            if ((((kinds >> 1) ^ kinds) & 0b01_0101) != 0)
            {
                break;
            }

            var id = unchecked(previous.Id + 1);
            if ((flags & BinaryWire.IdIsNextFlag) == 0)
            {
                if (!Leb128.TryReadShort(ref bytes, ref at, BinaryWire.MaxVarUInt32Bytes, BinaryWire.LastVarUInt32ByteMax, out var idDelta))
                {
                    break;
                }

                id = unchecked(previous.Id + BinaryVarint.UnZigZag((uint)idDelta));
            }

            if (!TryReadText(ref bytes, ref at, kinds, ref previous.Name, maxBytes)
                || !TryReadText(ref bytes, ref at, kinds >> 2, ref previous.Description, maxBytes)
                || !TryReadText(ref bytes, ref at, kinds >> 4, ref previous.Address, maxBytes))
            {
                break;
            }

            double value;
            if ((flags & BinaryWire.ValueIsIntegerFlag) != 0)
            {
                if (!Leb128.TryReadShort(ref bytes, ref at, BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out var zigzag))
                {
                    break;
                }

                // At most 56 bits, so never 2^63 or more; an integer binary64 cannot hold exactly is left to the member reader.
                var integer = BinaryVarint.UnZigZag(zigzag);
                value = integer;
                if ((long)value != integer)
                {
                    break;
                }
            }
            else
            {
                value = BinaryPrimitives.ReadDoubleLittleEndian(MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref bytes, at), sizeof(double)));
                at += sizeof(double);
            }

            if (!Leb128.TryReadShort(ref bytes, ref at, BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out var updateTimeDelta))
            {
                break;
            }

            // The member is complete: only now does it become the previous member.
            previous.Commit(id, unchecked(previous.UpdateTime + BinaryVarint.UnZigZag(updateTimeDelta)));
            position = at;
            decoder.TakeMember(ref previous, value);
        }

        return position;
    }

    // A text of kind 0 or 3 (the caller has checked); false leaves the member to the member reader.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryReadText(ref byte bytes, ref int at, int kind, ref BinaryTextField field, int maxBytes)
    {
        if ((kind & BinaryWire.TextKindMask) == BinaryWire.TextNull)
        {
            field.SetNextNull();
            return true;
        }

        // At most 56 bits, so below NumberLimit (10^19) by construction.
        if (!Leb128.TryReadShort(ref bytes, ref at, BinaryWire.MaxVarUInt64Bytes, BinaryWire.LastVarUInt64ByteMax, out var number))
        {
            return false;
        }

        var stem = field.PreviousStemLength();
        var digits = DecimalDigits.Count(number);
        if ((uint)(stem + digits) > (uint)maxBytes)
        {
            return false;
        }

        field.SetNextStemAndNumber(stem, number, digits);
        return true;
    }
}
