using System.Buffers;
using System.Runtime.CompilerServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Writes one payload of the binary format (docs/binary-format.md). It remembers the previous member, because each
/// member is written as a difference from it, and the number of members the header declared, so that a caller who
/// writes a different number fails loudly instead of producing a payload every reader rejects.
/// Nothing is allocated per member, and texts are never transcoded as a whole: the shared prefix and the number are
/// found in the UTF-16 chars, and only the literal text between them is transcoded, straight into the output.
/// </summary>
internal sealed class BinaryOrganizationEncoder : IOrganizationEncoder
{
    private bool _headerWritten;
    private int _declaredMembers;
    private long _writtenMembers;

    // "The member before the first one is taken to have Id 0, UpdateTime 0 and null texts."
    private PreviousMember _previous;
    private PreviousTexts? _previousTexts;

    public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(organization);
        ArgumentOutOfRangeException.ThrowIfNegative(memberCount);

        var writer = new BinaryWireWriter(output);
        writer.Reserve(BinaryWire.MagicLength + 1 + (3 * BinaryWire.MaxVarUInt32Bytes));
        writer.WriteBytes(BinaryWire.Magic);
        writer.WriteByte(BinaryWire.Version);
        writer.WriteVarUInt32(ZigZag(organization.Id));

        var tags = organization.Tags;
        if (tags is null)
        {
            writer.WriteVarUInt32(BinaryWire.NullCount);
        }
        else
        {
            writer.WriteVarUInt32((uint)tags.Length + 1);
            foreach (var tag in tags)
            {
                WriteNullableString(ref writer, tag);
            }
        }

        _declaredMembers = organization.Members is null ? 0 : memberCount;
        writer.Reserve(BinaryWire.MaxVarUInt32Bytes);
        writer.WriteVarUInt32(organization.Members is null ? BinaryWire.NullCount : (uint)memberCount + 1);
        writer.Flush();
        _headerWritten = true;
        return writer.BytesWritten;
    }

    public long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (!_headerWritten)
        {
            BinaryThrowHelper.ThrowHeaderNotWritten();
        }

        if (_writtenMembers + members.Length > _declaredMembers)
        {
            BinaryThrowHelper.ThrowMemberCountMismatch(_declaredMembers, _writtenMembers + members.Length);
        }

        if (_previousTexts is not null)
        {
            throw new InvalidOperationException("This encoder's members were written from views; a payload's members all come one way.");
        }

        // The previous member is kept in a local while the batch is written and stored back once, so that a member's three
        // texts take no GC write barrier (as stores into this object would).
        var writer = new BinaryWireWriter(output);
        var previous = _previous;
        for (var i = 0; i < members.Length; i++)
        {
            var member = members[i];
            if (member is null)
            {
                BinaryThrowHelper.ThrowNullMember(i);
            }

            WriteMember(ref writer, member, ref previous);
        }

        _previous = previous;
        _writtenMembers += members.Length;
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteMember(IBufferWriter<byte> output, in MemberView member)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (!_headerWritten)
        {
            BinaryThrowHelper.ThrowHeaderNotWritten();
        }

        if (_writtenMembers + 1 > _declaredMembers)
        {
            BinaryThrowHelper.ThrowMemberCountMismatch(_declaredMembers, _writtenMembers + 1);
        }

        // Each member is written against the previous one, so one payload's members all come one way.
        if (_writtenMembers > 0 && _previousTexts is null)
        {
            throw new InvalidOperationException("This encoder's members were written from Member objects; a payload's members all come one way.");
        }

        var texts = _previousTexts ??= new PreviousTexts();
        var name = member.Name;
        var description = member.Description;
        var address = member.Address;
        var writer = new BinaryWireWriter(output);
        writer.Reserve(checked(BinaryWire.MaxMemberFixedBytes + name.Bytes.Length + description.Bytes.Length + address.Bytes.Length));
        var flagsPosition = writer.SkipByte();
        var flags = WriteId(ref writer, member.Id, ref _previous);
        flags |= WriteText(ref writer, name, texts.Name, ref _previous.NameStem) << BinaryWire.NameKindShift;
        flags |= WriteText(ref writer, description, texts.Description, ref _previous.DescriptionStem) << BinaryWire.DescriptionKindShift;
        flags |= WriteText(ref writer, address, texts.Address, ref _previous.AddressStem) << BinaryWire.AddressKindShift;
        flags |= WriteNumbers(ref writer, member.Value, member.UpdateTime, ref _previous);
        writer.PatchByte(flagsPosition, (byte)flags);
        texts.Name.Set(name);
        texts.Description.Set(description);
        texts.Address.Set(address);
        _writtenMembers++;
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteFooter(IBufferWriter<byte> output)
    {
        // "There is no footer: the payload ends with the last member". Checking the count here keeps a short
        // payload from leaving the server looking complete to every layer below the reader.
        if (!_headerWritten)
        {
            BinaryThrowHelper.ThrowHeaderNotWritten();
        }

        if (_writtenMembers != _declaredMembers)
        {
            BinaryThrowHelper.ThrowMemberCountMismatch(_declaredMembers, _writtenMembers);
        }

        return 0;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static uint ZigZag(int value) => (uint)((value << 1) ^ (value >> 31));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static ulong ZigZag(long value) => (ulong)((value << 1) ^ (value >> 63));

    /// <summary>
    /// True when <paramref name="value"/> takes the integer form: integral, in [-2^63, 2^63), and not -0.0 (whose
    /// sign the integer 0 would lose). NaN and the infinities fail the range test.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool TryGetExactInt64(double value, out long integer)
    {
        if (value >= -BinaryWire.TwoToThe63 && value < BinaryWire.TwoToThe63)
        {
            integer = (long)value;
            return integer == value && (integer != 0 || !double.IsNegative(value));
        }

        integer = 0;
        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteMember(ref BinaryWireWriter writer, Member member, ref PreviousMember previous)
    {
        var name = member.Name;
        var description = member.Description;
        var address = member.Address;
        ReserveMember(ref writer, name, description, address);

        // The flags byte comes first but holds the text kinds, which are known only once each text is written.
        var flagsPosition = writer.SkipByte();
        var flags = WriteId(ref writer, member.Id, ref previous);
        flags |= WriteText(ref writer, name, previous.Name, ref previous.NameStem) << BinaryWire.NameKindShift;
        flags |= WriteText(ref writer, description, previous.Description, ref previous.DescriptionStem) << BinaryWire.DescriptionKindShift;
        flags |= WriteText(ref writer, address, previous.Address, ref previous.AddressStem) << BinaryWire.AddressKindShift;
        flags |= WriteNumbers(ref writer, member.Value, member.UpdateTime, ref previous);
        writer.PatchByte(flagsPosition, (byte)flags);

        previous.Name = name;
        previous.Description = description;
        previous.Address = address;
    }

    // "flags bit 0: set when Id = previous Id + 1"; otherwise the zigzag delta follows the flags.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteId(ref BinaryWireWriter writer, int id, ref PreviousMember previous)
    {
        var idDelta = unchecked(id - previous.Id);
        previous.Id = id;
        if (idDelta == 1)
        {
            return BinaryWire.IdIsNextFlag;
        }

        writer.WriteVarUInt32(ZigZag(idDelta));
        return 0;
    }

    // Value, as an integer where that is exact, then the update time's delta; returns the value's flag.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteNumbers(ref BinaryWireWriter writer, double value, long updateTime, ref PreviousMember previous)
    {
        var flags = 0;
        if (TryGetExactInt64(value, out var integerValue))
        {
            flags = BinaryWire.ValueIsIntegerFlag;
            writer.WriteVarUInt64(ZigZag(integerValue));
        }
        else
        {
            writer.WriteDouble(value);
        }

        writer.WriteVarUInt64(ZigZag(unchecked(updateTime - previous.UpdateTime)));
        previous.UpdateTime = updateTime;
        return flags;
    }

    /// <summary>
    /// Makes room for the whole member. A UTF-16 char takes at most 3 UTF-8 bytes, so three times the texts' chars
    /// bound their bytes without reading them; only when that bound does not fit in the current span are the texts
    /// measured, so that a member near the end of a span asks the output for no more than it may need.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void ReserveMember(ref BinaryWireWriter writer, string? name, string? description, string? address)
    {
        var chars = (long)(name?.Length ?? 0) + (description?.Length ?? 0) + (address?.Length ?? 0);
        if (!writer.HasRoom(BinaryWire.MaxMemberFixedBytes + (3 * chars)))
        {
            writer.Reserve(checked(BinaryWire.MaxMemberFixedBytes + Utf8Transcoder.ByteCount(name) + Utf8Transcoder.ByteCount(description) + Utf8Transcoder.ByteCount(address)));
        }
    }

    /// <summary>
    /// Writes a text field as the spec's "Writer choices" say and returns its kind: when the value is the previous
    /// value's stem followed by a canonical decimal, just that number (kind 3); otherwise share the longest common
    /// prefix of whole code points with the previous value, except that the suffix never starts with a 0 that continues
    /// a run of digits, and write the longest canonical decimal at the end of the suffix as a number.
    /// <paramref name="stem"/> holds the previous value's stem length on entry and this value's on return.
    /// Only the test for kind 3 (every seed text after the first member) is inlined into the member loop; the general
    /// plan is compiled on its own, since three inlined copies of it use up the loop's inline budget and leave the
    /// number writers behind as calls.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteText(ref BinaryWireWriter writer, string? value, string? previous, ref int stem)
    {
        if (value is null)
        {
            // A null value's stem is empty, as a null previous value's is.
            stem = 0;
            return BinaryWire.TextNull;
        }

        // Kind 3 tested as the previous value's stem followed by 1 to 16 digits: the stem's last char is no digit, so
        // those digits are this value's whole run and the stem is its stem too. Anything else goes to the general plan,
        // which gives the same kind 3 for longer runs and short texts.
        var digits = value.Length - stem;
        if (TrailingDigits.TryParseLast(value, digits, out var number)
            && (digits == 1 || value[stem] != '0')
            && value.AsSpan(0, stem).SequenceEqual(previous.AsSpan(0, stem)))
        {
            writer.WriteVarUInt64(number);
            return BinaryWire.TextStemAndNumber;
        }

        return PlanText(ref writer, value, previous, ref stem);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int PlanText(ref BinaryWireWriter writer, string value, string? previous, ref int stem) =>
        WriteText<Utf16Units, char>(ref writer, value, previous, ref stem);

    private static int WriteText(ref BinaryWireWriter writer, Utf8Text value, PreviousText previous, ref int stem)
    {
        if (value.IsNull)
        {
            stem = 0;
            return BinaryWire.TextNull;
        }

        return WriteText<Utf8Units, byte>(ref writer, value.Bytes, previous.Bytes, ref stem);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteText<TUnits, T>(ref BinaryWireWriter writer, ReadOnlySpan<T> chars, ReadOnlySpan<T> previousChars, ref int stem)
        where TUnits : ITextUnits<T>
        where T : unmanaged, IEquatable<T>
    {
        var run = TUnits.FindDigits(chars);

        // Rule 1, stem first: a value that is the previous value's stem and a canonical decimal is kind 3, whatever prefix
        // it shares. Comparing the stems settles it without measuring the common prefix of every text.
        var valueStem = chars.Length - run.Length;
        if (valueStem == stem && run.Length is > 0 and <= BinaryWire.MaxNumberDigits && (run.Length == 1 || !TUnits.IsZero(chars[valueStem]))
            && chars[..valueStem].SequenceEqual(previousChars[..valueStem]))
        {
            writer.WriteVarUInt64(run.Number);
            return BinaryWire.TextStemAndNumber;
        }

        stem = valueStem;
        var prefix = TUnits.WholeCodePoints(chars, chars.CommonPrefixLength(previousChars));
        while (prefix > 0 && prefix < chars.Length && TUnits.IsZero(chars[prefix]) && TUnits.IsAsciiDigit(chars[prefix - 1]))
        {
            prefix--;
        }

        var prefixBytes = TUnits.Utf8Length(chars, prefix);
        var suffix = chars[prefix..];

        // The number is the suffix's last 19 digits at most, less its leading zeros, which go back to the text.
        var digits = Math.Min(Math.Min(run.Length, suffix.Length), BinaryWire.MaxNumberDigits);
        var numberStart = suffix.Length - digits;
        while (digits > 1 && TUnits.IsZero(suffix[numberStart]))
        {
            numberStart++;
            digits--;
        }

        writer.WriteVarUInt32((uint)prefixBytes);
        if (numberStart == 0 && digits > 0)
        {
            writer.WriteVarUInt64(TUnits.ValueOfLast(chars, run, digits));
            return BinaryWire.TextPrefixAndNumber;
        }

        var text = suffix[..numberStart];
        var textBytes = TUnits.Utf8Length(text, text.Length);
        writer.WriteVarUInt32(((uint)textBytes << 1) | (digits > 0 ? BinaryWire.NumberFollowsFlag : 0));
        TUnits.WriteUtf8(ref writer, text, textBytes);
        if (digits > 0)
        {
            writer.WriteVarUInt64(TUnits.ValueOfLast(chars, run, digits));
        }

        return BinaryWire.TextPrefixAndText;
    }

    private static void WriteNullableString(ref BinaryWireWriter writer, string? value)
    {
        if (value is null)
        {
            writer.Reserve(1);
            writer.WriteVarUInt32(BinaryWire.NullCount);
            return;
        }

        var length = Utf8Transcoder.ByteCount(value);
        writer.Reserve(BinaryWire.MaxVarUInt32Bytes + length);
        writer.WriteVarUInt32((uint)length + 1);
        writer.WriteUtf8(value, length);
    }

    /// <summary>
    /// What the next member is written against: the previous member's id, update time and texts, and the stem of
    /// each text (its chars before the trailing digits, "stem(previous)" of Text kind 3).
    /// </summary>
    private struct PreviousMember
    {
        // Name, Description and Address hold the previous texts of members written from objects; a conversion's, written
        // from a decoder's views, are copied into PreviousTexts, since the views end with each member.
        public int Id;
        public long UpdateTime;
        public string? Name;
        public string? Description;
        public string? Address;
        public int NameStem;
        public int DescriptionStem;
        public int AddressStem;
    }

    /// <summary>The previous member's texts, copied out of the views a conversion writes from.</summary>
    private sealed class PreviousTexts
    {
        public PreviousText Name { get; } = new();

        public PreviousText Description { get; } = new();

        public PreviousText Address { get; } = new();
    }

    /// <summary>One previous text as UTF-8, in a buffer that grows only as far as the longest text needs.</summary>
    private sealed class PreviousText
    {
        private byte[] _buffer = new byte[64];
        private int _length;

        public ReadOnlySpan<byte> Bytes => _buffer.AsSpan(0, _length);

        public void Set(Utf8Text text)
        {
            var bytes = text.Bytes;
            if (bytes.Length > _buffer.Length)
            {
                _buffer = new byte[Math.Max(bytes.Length, 2 * _buffer.Length)];
            }

            bytes.CopyTo(_buffer);
            _length = bytes.Length;
        }
    }
}
