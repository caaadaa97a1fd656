namespace WebSerialization.Models.Binary;

/// <summary>
/// The wire constants of the binary format, in the order docs/binary-format.md introduces them. Each comment quotes
/// or restates the spec line it implements; change the spec and this class together.
/// </summary>
internal static class BinaryWire
{
    // "Payload := (byte[4] magic = 57 53 42 46 ("WSBF"), byte version, ...)"
    public const int MagicLength = 4;

    public static ReadOnlySpan<byte> Magic => "WSBF"u8;

    // "version: 1. A reader rejects any other value as Malformed; nothing after the version byte is read."
    public const byte Version = 1;

    // "Nullable counts and lengths are written as varint32 (n + 1); 0 stands for null."
    public const uint NullCount = 0;

    // "varint32: LEB128, at most 5 bytes; the 5th byte may not exceed 0x0F."
    public const int MaxVarUInt32Bytes = 5;
    public const byte LastVarUInt32ByteMax = 0x0F;

    // "varint64: LEB128, at most 10 bytes; the 10th byte may not exceed 0x01."
    public const int MaxVarUInt64Bytes = 10;
    public const byte LastVarUInt64ByteMax = 0x01;

    // "flags bit 0: set when id = previous id + 1 (32-bit wrap-around); no id delta follows."
    public const int IdIsNextFlag = 1 << 0;

    // "flags bits 1-2, 3-4, 5-6: the Text kind of Name, Description and Address."
    public const int NameKindShift = 1;
    public const int DescriptionKindShift = 3;
    public const int AddressKindShift = 5;
    public const int TextKindMask = 0b11;

    // "flags bit 7: set when Value is written as a zigzag varint64 integer, clear when as 8 raw bytes."
    public const int ValueIsIntegerFlag = 1 << 7;

    // "Text kind 0: null. Nothing follows."
    public const int TextNull = 0;

    // "Text kind 1: (varint32 prefixLength, varint32 suffixLength, byte[suffixLength] suffix)."
    public const int TextSuffix = 1;

    // "Text kind 2: (varint32 prefixLength, varint64 number); the value is prefix + decimal(number)."
    public const int TextNumber = 2;

    // "Text kind 3: (varint32 prefixLength, varint32 textLength, byte[textLength] text, varint64 number)."
    public const int TextSuffixAndNumber = 3;

    // "A number is a canonical decimal: 1 to 19 ASCII digits, no leading 0 unless it is "0" itself, so number < 10^19."
    public const int MaxNumberDigits = 19;
    public const ulong NumberLimit = 10_000_000_000_000_000_000;

    // "The smallest member is 3 bytes: flags, a 1-byte integer value and a 1-byte time delta."
    public const int MinMemberBytes = 3;

    // "Value integer form: -2^63 <= value < 2^63, integral, not -0.0, and exactly what binary64 holds."
    public const double TwoToThe63 = 9_223_372_036_854_775_808.0;

    // The most bytes a member takes apart from its text bytes: flags, id delta, three times (prefix length,
    // text length, number), value and time delta. The writer reserves this much once per member.
    public const int MaxMemberFixedBytes = 1 + MaxVarUInt32Bytes + (3 * ((2 * MaxVarUInt32Bytes) + MaxVarUInt64Bytes)) + (2 * MaxVarUInt64Bytes);
}
