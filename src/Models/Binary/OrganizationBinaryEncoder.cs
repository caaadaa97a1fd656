using System.Buffers;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Writes one payload of the binary format (docs/binary-format.md). It remembers the previous member, because each
/// member is written as a difference from it, and the number of members the header declared, so that a caller who
/// writes a different number fails loudly instead of producing a payload every reader rejects.
/// Nothing is allocated per member, and texts are never transcoded as a whole: the shared prefix and the number are
/// found in the UTF-16 chars, and only the literal text between them is transcoded, straight into the output.
/// </summary>
internal sealed class OrganizationBinaryEncoder : IOrganizationEncoder
{
    private bool _headerWritten;
    private int _declaredMembers;
    private long _writtenMembers;

    // "The member before the first one is taken to have Id 0, UpdateTime 0 and null texts."
    private int _previousId;
    private long _previousUpdateTime;
    private string? _previousName;
    private string? _previousDescription;
    private string? _previousAddress;

    // The chars of each previous value before its trailing digits: "stem(previous)" of Text kind 3.
    private int _previousNameStem;
    private int _previousDescriptionStem;
    private int _previousAddressStem;

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

    private void WriteMember(ref OrganizationBinaryWriter writer, Member member)
    {
        var name = PlanText(member.Name, _previousName, _previousNameStem);
        var description = PlanText(member.Description, _previousDescription, _previousDescriptionStem);
        var address = PlanText(member.Address, _previousAddress, _previousAddressStem);

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

        writer.Reserve(BinaryWire.MaxMemberFixedBytes + name.TextBytes + description.TextBytes + address.TextBytes);
        writer.WriteByte((byte)flags);
        if (idDelta != 1)
        {
            writer.WriteVarUInt32(ZigZag(idDelta));
        }

        WriteText(ref writer, name, member.Name);
        WriteText(ref writer, description, member.Description);
        WriteText(ref writer, address, member.Address);
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
        _previousName = member.Name;
        _previousDescription = member.Description;
        _previousAddress = member.Address;
        _previousNameStem = name.Stem;
        _previousDescriptionStem = description.Stem;
        _previousAddressStem = address.Stem;
    }

    /// <summary>
    /// Chooses how a text field is written (docs/binary-format.md, "Writer choices"): share the longest common prefix
    /// of whole code points with the previous value, except that the suffix never starts with a 0 that continues a run
    /// of digits; write the longest canonical decimal at the end of the suffix as a number; and when the value is the
    /// previous value's stem followed by a canonical decimal, write just that number if it is no longer.
    /// </summary>
    private static TextPlan PlanText(string? value, string? previous, int previousStem)
    {
        if (value is null)
        {
            return default;
        }

        var chars = value.AsSpan();
        var common = previous is null ? 0 : chars.CommonPrefixLength(previous);

        // The trailing run of digits, read from the end; its value when it has at most 19 digits.
        var run = 0;
        ulong runNumber = 0;
        ulong scale = 1;
        while (run < chars.Length)
        {
            var digit = (uint)(chars[chars.Length - 1 - run] - '0');
            if (digit > 9)
            {
                break;
            }

            if (run < BinaryWire.MaxNumberDigits)
            {
                runNumber += digit * scale;
                scale *= 10;
            }

            run++;
        }

        var stem = chars.Length - run;

        // Kind 3 needs the same stem as the previous value (a null previous value has an empty one) and a canonical
        // decimal after it.
        var stemAndNumber = stem == previousStem && common >= stem && run is > 0 and <= BinaryWire.MaxNumberDigits && (run == 1 || chars[stem] != '0');

        // The prefix is counted in UTF-8 bytes, which half a surrogate pair does not have.
        var prefix = common;
        if (prefix > 0 && char.IsHighSurrogate(chars[prefix - 1]))
        {
            prefix--;
        }

        while (prefix > 0 && prefix < chars.Length && chars[prefix] == '0' && char.IsAsciiDigit(chars[prefix - 1]))
        {
            prefix--;
        }

        if (stemAndNumber && prefix <= stem)
        {
            // The suffix would hold the same number, and kind 3 drops the prefix.
            return new TextPlan(BinaryWire.TextStemAndNumber, stem, runNumber);
        }

        // The number is the suffix's last 19 digits at most, less its leading zeros, which go back to the text.
        var suffix = chars[prefix..];
        var digits = Math.Min(Math.Min(run, suffix.Length), BinaryWire.MaxNumberDigits);
        var numberStart = suffix.Length - digits;
        while (digits > 1 && suffix[numberStart] == '0')
        {
            numberStart++;
            digits--;
        }

        // One vectorized pass tells whether chars and UTF-8 bytes can be counted alike, as they can in ASCII text.
        var isAscii = Ascii.IsValid(chars);
        var prefixBytes = isAscii ? prefix : Encoding.UTF8.GetByteCount(chars[..prefix]);
        if (stemAndNumber)
        {
            // The prefix reaches into the digits, so the suffix is a shorter number (kind 2), or nothing when the value
            // ends where the prefix does (kind 1 with no text): kind 3 only if it is no longer.
            var suffixNumber = ParseDigits(suffix);
            var alternative = VarintLength((uint)prefixBytes) + (suffix.IsEmpty ? 1 : VarintLength(suffixNumber));
            if (VarintLength(runNumber) <= alternative)
            {
                return new TextPlan(BinaryWire.TextStemAndNumber, stem, runNumber);
            }

            return suffix.IsEmpty
                ? new TextPlan(BinaryWire.TextPrefixAndText, stem, prefixBytes, prefix, 0, 0, hasNumber: false, 0)
                : new TextPlan(BinaryWire.TextPrefixAndNumber, stem, prefixBytes, prefix, 0, 0, hasNumber: true, suffixNumber);
        }

        var textBytes = isAscii ? numberStart : Encoding.UTF8.GetByteCount(suffix[..numberStart]);
        if (digits == 0)
        {
            return new TextPlan(BinaryWire.TextPrefixAndText, stem, prefixBytes, prefix, numberStart, textBytes, hasNumber: false, 0);
        }

        return numberStart == 0
            ? new TextPlan(BinaryWire.TextPrefixAndNumber, stem, prefixBytes, prefix, 0, 0, hasNumber: true, ParseDigits(suffix))
            : new TextPlan(BinaryWire.TextPrefixAndText, stem, prefixBytes, prefix, numberStart, textBytes, hasNumber: true, ParseDigits(suffix[numberStart..]));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteText(ref OrganizationBinaryWriter writer, in TextPlan text, string? value)
    {
        switch (text.Kind)
        {
            case BinaryWire.TextPrefixAndText:
                writer.WriteVarUInt32((uint)text.PrefixBytes);
                writer.WriteVarUInt32(((uint)text.TextBytes << 1) | (text.HasNumber ? BinaryWire.NumberFollowsFlag : 0));
                writer.WriteUtf8(value.AsSpan(text.TextStart, text.TextChars), text.TextBytes);
                if (text.HasNumber)
                {
                    writer.WriteVarUInt64(text.Number);
                }

                break;
            case BinaryWire.TextPrefixAndNumber:
                writer.WriteVarUInt32((uint)text.PrefixBytes);
                writer.WriteVarUInt64(text.Number);
                break;
            case BinaryWire.TextStemAndNumber:
                writer.WriteVarUInt64(text.Number);
                break;
        }
    }

    // The number of canonical digits (at most 19, no leading zero unless "0"), which the caller has checked.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ParseDigits(ReadOnlySpan<char> digits)
    {
        ulong number = 0;
        foreach (var digit in digits)
        {
            number = (number * 10) + (uint)(digit - '0');
        }

        return number;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int VarintLength(ulong value) => (BitOperations.Log2(value | 1) / 7) + 1;

    private static void WriteNullableString(ref OrganizationBinaryWriter writer, string? value)
    {
        if (value is null)
        {
            writer.Reserve(1);
            writer.WriteVarUInt32(BinaryWire.NullCount);
            return;
        }

        var length = Utf8Length(value);
        writer.Reserve(BinaryWire.MaxVarUInt32Bytes + length);
        writer.WriteVarUInt32((uint)length + 1);
        writer.WriteUtf8(value, length);
    }

    // Encoding.UTF8 counts a lone surrogate as the 3 bytes of U+FFFD, as Utf8.FromUtf16 writes it.
    private static int Utf8Length(ReadOnlySpan<char> chars) =>
        Ascii.IsValid(chars) ? chars.Length : Encoding.UTF8.GetByteCount(chars);

    /// <summary>
    /// How one text field is written: its kind, the shared prefix length in UTF-8 bytes, the literal text between prefix
    /// and number (as chars of the value and as a UTF-8 length), whether a number follows and the number; and the stem
    /// of the value (its chars before the trailing digits), which the next member's kind 3 refers to.
    /// </summary>
    private readonly struct TextPlan
    {
        public TextPlan(int kind, int stem, int prefixBytes, int textStart, int textChars, int textBytes, bool hasNumber, ulong number)
        {
            Kind = kind;
            Stem = stem;
            PrefixBytes = prefixBytes;
            TextStart = textStart;
            TextChars = textChars;
            TextBytes = textBytes;
            HasNumber = hasNumber;
            Number = number;
        }

        public TextPlan(int kind, int stem, ulong number)
            : this(kind, stem, 0, 0, 0, 0, hasNumber: true, number)
        {
        }

        public int Kind { get; }

        public int Stem { get; }

        public int PrefixBytes { get; }

        public int TextStart { get; }

        public int TextChars { get; }

        public int TextBytes { get; }

        public bool HasNumber { get; }

        public ulong Number { get; }
    }
}
