using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Writes one payload of the binary format (docs/binary-format.md). It remembers the previous member, because each
/// member is written as a difference from it, and the number of members the header declared, so that a caller who
/// writes a different number fails loudly instead of producing a payload every reader rejects.
/// Nothing is allocated per member: text fields are transcoded into buffers that live as long as the encoder.
/// </summary>
internal sealed class OrganizationBinaryEncoder : IOrganizationEncoder
{
    private readonly TextFieldHistory _name = new();
    private readonly TextFieldHistory _description = new();
    private readonly TextFieldHistory _address = new();
    private byte[] _tagBuffer = [];
    private bool _headerWritten;
    private int _declaredMembers;
    private long _writtenMembers;

    // "The member before the first one is taken to have id 0, update time 0 and null texts."
    private int _previousId;
    private long _previousUpdateTime;

    public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(organization);
        ArgumentOutOfRangeException.ThrowIfNegative(memberCount);

        var writer = new OrganizationBinaryWriter(output);
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

        var writer = new OrganizationBinaryWriter(output);
        for (var i = 0; i < members.Length; i++)
        {
            var member = members[i];
            if (member is null)
            {
                BinaryThrowHelper.ThrowNullMember(i);
            }

            WriteMember(ref writer, member);
        }

        _writtenMembers += members.Length;
        writer.Flush();
        return writer.BytesWritten;
    }

    public long WriteFooter(IBufferWriter<byte> output)
    {
        // "There is no footer: the payload ends with the last member." Checking the count here keeps a short
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

    private void WriteMember(ref OrganizationBinaryWriter writer, Member member)
    {
        var name = PlanText(member.Name, _name);
        var description = PlanText(member.Description, _description);
        var address = PlanText(member.Address, _address);

        var flags = (name.Kind << BinaryWire.NameKindShift)
            | (description.Kind << BinaryWire.DescriptionKindShift)
            | (address.Kind << BinaryWire.AddressKindShift);
        var idDelta = unchecked(member.Id - _previousId);
        if (idDelta == 1)
        {
            flags |= BinaryWire.IdIsNextFlag;
        }

        var isInteger = TryGetExactInt64(member.Value, out var integerValue);
        if (isInteger)
        {
            flags |= BinaryWire.ValueIsIntegerFlag;
        }

        writer.Reserve(BinaryWire.MaxMemberFixedBytes + name.TextLength + description.TextLength + address.TextLength);
        writer.WriteByte((byte)flags);
        if (idDelta != 1)
        {
            writer.WriteVarUInt32(ZigZag(idDelta));
        }

        WriteText(ref writer, name);
        WriteText(ref writer, description);
        WriteText(ref writer, address);
        if (isInteger)
        {
            writer.WriteVarUInt64(ZigZag(integerValue));
        }
        else
        {
            writer.WriteDouble(member.Value);
        }

        writer.WriteVarUInt64(ZigZag(unchecked(member.UpdateTime - _previousUpdateTime)));

        _previousId = member.Id;
        _previousUpdateTime = member.UpdateTime;
        Commit(_name, name);
        Commit(_description, description);
        Commit(_address, address);
    }

    /// <summary>
    /// Chooses how a text field is written (docs/binary-format.md, "Writer choices"): share the longest common prefix
    /// with the previous value, except that the suffix never starts with a 0 that continues a run of digits; then
    /// write the longest canonical decimal at the end of the suffix as a number.
    /// </summary>
    private static TextPlan PlanText(string? value, TextFieldHistory history)
    {
        if (value is null)
        {
            return default;
        }

        var buffer = history.Current(Encoding.UTF8.GetMaxByteCount(value.Length));

        // Lone surrogates cannot be UTF-8; like the other formats' writers, the encoder writes U+FFFD for them.
        Utf8.FromUtf16(value, buffer, out _, out var length, replaceInvalidSequences: true);
        var bytes = new ReadOnlySpan<byte>(buffer, 0, length);

        var prefix = bytes.CommonPrefixLength(history.Previous);
        while (prefix > 0 && prefix < length && bytes[prefix] == (byte)'0' && IsDigit(bytes[prefix - 1]))
        {
            prefix--;
        }

        var suffix = bytes[prefix..];
        var digits = 0;
        while (digits < BinaryWire.MaxNumberDigits && digits < suffix.Length && IsDigit(suffix[^(digits + 1)]))
        {
            digits++;
        }

        var numberStart = suffix.Length - digits;
        while (digits > 1 && suffix[numberStart] == (byte)'0')
        {
            numberStart++;
            digits--;
        }

        if (digits == 0)
        {
            return new TextPlan(BinaryWire.TextSuffix, buffer, length, prefix, suffix.Length, 0);
        }

        ulong number = 0;
        foreach (var digit in suffix[numberStart..])
        {
            number = (number * 10) + (uint)(digit - '0');
        }

        var kind = numberStart == 0 ? BinaryWire.TextNumber : BinaryWire.TextSuffixAndNumber;
        return new TextPlan(kind, buffer, length, prefix, numberStart, number);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteText(ref OrganizationBinaryWriter writer, in TextPlan text)
    {
        switch (text.Kind)
        {
            case BinaryWire.TextSuffix:
                writer.WriteVarUInt32((uint)text.PrefixLength);
                writer.WriteVarUInt32((uint)text.TextLength);
                writer.WriteBytes(text.Text);
                break;
            case BinaryWire.TextNumber:
                writer.WriteVarUInt32((uint)text.PrefixLength);
                writer.WriteVarUInt64(text.Number);
                break;
            case BinaryWire.TextSuffixAndNumber:
                writer.WriteVarUInt32((uint)text.PrefixLength);
                writer.WriteVarUInt32((uint)text.TextLength);
                writer.WriteBytes(text.Text);
                writer.WriteVarUInt64(text.Number);
                break;
        }
    }

    private static void Commit(TextFieldHistory history, in TextPlan text)
    {
        if (text.Kind == BinaryWire.TextNull)
        {
            history.CommitNull();
        }
        else
        {
            history.Commit(text.ValueLength);
        }
    }

    private void WriteNullableString(ref OrganizationBinaryWriter writer, string? value)
    {
        if (value is null)
        {
            writer.Reserve(1);
            writer.WriteVarUInt32(BinaryWire.NullCount);
            return;
        }

        var capacity = Encoding.UTF8.GetMaxByteCount(value.Length);
        if (_tagBuffer.Length < capacity)
        {
            _tagBuffer = new byte[capacity];
        }

        Utf8.FromUtf16(value, _tagBuffer, out _, out var length, replaceInvalidSequences: true);
        writer.Reserve(BinaryWire.MaxVarUInt32Bytes + length);
        writer.WriteVarUInt32((uint)length + 1);
        writer.WriteBytes(_tagBuffer.AsSpan(0, length));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsDigit(byte value) => (uint)(value - '0') <= 9;

    /// <summary>
    /// How one text field is written: its kind, the shared prefix length, the literal text between prefix and number
    /// (<see cref="TextLength"/> bytes from <see cref="PrefixLength"/>) and the number.
    /// </summary>
    private readonly struct TextPlan(int kind, byte[] buffer, int valueLength, int prefixLength, int textLength, ulong number)
    {
        public int Kind { get; } = kind;

        public int ValueLength { get; } = valueLength;

        public int PrefixLength { get; } = prefixLength;

        public int TextLength { get; } = textLength;

        public ulong Number { get; } = number;

        public ReadOnlySpan<byte> Text => new(buffer, PrefixLength, TextLength);
    }
}
