using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;
using static WebSerialization.Models.Protobuf.ProtobufWire;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// How <see cref="ProtobufOrganizationDecoder"/> reads a tag and steps over a field it does not know, of any wire type,
/// within the limits: a length-delimited field or a top-level group of at most <see cref="MaxFieldBytes"/>, groups
/// nested no deeper than <see cref="DecodeLimits.MaxDepth"/>. Varints longer than 10 bytes or beyond 64 bits fail in
/// <see cref="BufferReader"/>; wire types 6 and 7 and end-group tags without their start-group here.
/// </summary>
internal readonly struct ProtobufUnknownFields
{
    private readonly int _maxDepth;
    private readonly int _maxStringBytes;

    public ProtobufUnknownFields(DecodeLimits limits)
    {
        _maxDepth = limits.MaxDepth;
        _maxStringBytes = limits.MaxStringBytes;
        MaxFieldBytes = (int)Math.Min(Array.MaxLength, (4L * limits.MaxStringBytes) + 64);
    }

    /// <summary>
    /// The longest member, top-level group or unknown length-delimited field accepted, derived from MaxStringBytes: room
    /// for three maximal strings, every number and as much again in unknown fields.
    /// </summary>
    public int MaxFieldBytes { get; }

    /// <summary>
    /// Steps over an unknown field whose tag, just read, starts at <paramref name="fieldStart"/>, at
    /// <paramref name="depth"/> levels of nesting; false when its bytes run past the reader's end (at the top level they
    /// have not arrived yet; inside a member, whose bytes the reader holds exactly, the field is malformed).
    /// </summary>
    public bool TrySkip(ref BufferReader reader, uint tag, int depth, bool insideMember, int fieldStart)
    {
        switch ((int)tag & WireTypeMask)
        {
            case Varint:
                return reader.TryReadVarint64(out _);
            case Fixed64:
                return reader.TrySkip(sizeof(ulong));
            case Fixed32:
                return reader.TrySkip(sizeof(uint));
            case LengthDelimited:
                if (!reader.TryReadVarint64(out var length))
                {
                    return false;
                }

                // Inside a member a length past the member's end is its overrun (Malformed), whatever its size.
                if (insideMember && length > (ulong)reader.Remaining)
                {
                    return false;
                }

                if (length > (ulong)MaxFieldBytes)
                {
                    ThrowFieldTooLong(reader.Offset, length);
                }

                return reader.TrySkip(length);
            case StartGroup:
                return TrySkipGroup(ref reader, tag, depth, insideMember, fieldStart);
            case EndGroup:
                WireFormatThrow.Malformed(reader.OffsetOf(fieldStart), "An end-group tag without a start-group tag.");
                return false;
            default:
                WireFormatThrow.Malformed(reader.OffsetOf(fieldStart), $"Invalid wire type {tag & WireTypeMask} (field {tag >> 3}).");
                return false;
        }
    }

    // A group's end is found only by walking its fields; at the top level it is held to MaxFieldBytes as it is walked.
    private bool TrySkipGroup(ref BufferReader reader, uint startTag, int depth, bool insideMember, int groupStart)
    {
        if (depth + 1 > _maxDepth)
        {
            var message = $"Groups nested deeper than MaxDepth ({_maxDepth}) levels.";
            if (insideMember)
            {
                WireFormatThrow.Malformed(reader.OffsetOf(groupStart), message);
            }

            WireFormatThrow.LimitExceeded(reader.Offset, nameof(DecodeLimits.MaxDepth), message);
        }

        while (true)
        {
            if (reader.Position - groupStart > MaxFieldBytes)
            {
                ThrowFieldTooLong(reader.OffsetOf(groupStart), (ulong)(reader.Position - groupStart));
            }

            var fieldStart = reader.Position;
            if (!TryReadTag(ref reader, out var tag))
            {
                return false;
            }

            if (((int)tag & WireTypeMask) == EndGroup)
            {
                if ((tag >> 3) != (startTag >> 3))
                {
                    WireFormatThrow.Malformed(reader.OffsetOf(fieldStart), $"An end-group tag of field {tag >> 3} closes the group of field {startTag >> 3}.");
                }

                return true;
            }

            if (!TrySkip(ref reader, tag, depth + 1, insideMember, fieldStart))
            {
                return false;
            }
        }
    }

    /// <summary>Reads a tag: a varint of up to 32 bits (padding allowed) whose field number is not 0.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadTag(ref BufferReader reader, out uint tag)
    {
        var start = reader.Position;
        if (!reader.TryReadVarint64(out var value))
        {
            tag = 0;
            return false;
        }

        if (value > uint.MaxValue || value >> 3 == 0)
        {
            ThrowInvalidTag(reader.OffsetOf(start), value);
        }

        tag = (uint)value;
        return true;
    }

    /// <summary>A tag beyond 32 bits, or of field number 0, at <paramref name="offset"/>.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowInvalidTag(long offset, ulong value) =>
        WireFormatThrow.Malformed(
            offset,
            value > uint.MaxValue ? $"A tag ({value}) is beyond 32 bits." : "A field has number 0, which protobuf does not allow.");

    /// <summary>A field that declares, or has walked, more than <see cref="MaxFieldBytes"/>.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public void ThrowFieldTooLong(long offset, ulong length) =>
        WireFormatThrow.LimitExceeded(
            offset,
            nameof(DecodeLimits.MaxStringBytes),
            $"A field declares {length:N0} bytes where a member or unknown field may take {MaxFieldBytes:N0} (from DecodeLimits.MaxStringBytes, {_maxStringBytes:N0}).");
}
