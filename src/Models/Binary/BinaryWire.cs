namespace WebSerialization.Models.Binary;

/// <summary>
/// The wire constants of the binary format, in the order docs/binary-format.md introduces them. Each comment quotes
/// or restates the spec line it implements; change the spec and this class together.
/// </summary>
internal static class BinaryWire
{
    // "Payload := (byte[4] magic = 57 53 42 46 ("WSBF"), byte version = 1,"
    public const int MagicLength = 4;

    public static ReadOnlySpan<byte> Magic => "WSBF"u8;

    // "A reader rejects any version it does not implement as Malformed, before reading anything after the version byte"
    public const byte Version = 1;

    // "Nullable counts and lengths are written as varint32 (n + 1); 0 stands for null."
    public const uint NullCount = 0;

    // "A varint32 takes at most 5 bytes, and its 5th byte may not exceed 0x0F (the value fits in 32 bits)."
    public const int MaxVarUInt32Bytes = 5;
    public const byte LastVarUInt32ByteMax = 0x0F;

    // "A varint64 takes at most 10 bytes, and its 10th byte may not exceed 0x01 (the value fits in 64 bits)."
    public const int MaxVarUInt64Bytes = 10;
    public const byte LastVarUInt64ByteMax = 0x01;

    // flags bit 0: "set when Id = previous Id + 1 (32-bit wrap-around); no idDelta follows."
    public const int IdIsNextFlag = 1 << 0;

    // flags bits 1-2, 3-4 and 5-6: "the Text kind of Name", "of Description", "of Address".
    public const int NameKindShift = 1;
    public const int DescriptionKindShift = 3;
    public const int AddressKindShift = 5;
    public const int TextKindMask = 0b11;

    // flags bit 7: "set when Value is written as an integer, clear when as 8 raw bytes"
    public const int ValueIsIntegerFlag = 1 << 7;

    // "Text (kind 0) := () // null"
    public const int TextNull = 0;

    // "Text (kind 1) := (varint32 prefixLength, varint32 textLengthAndNumberFlag, byte[textLength] text, [varint64 number])"
    public const int TextPrefixAndText = 1;

    // "textLengthAndNumberFlag is textLength * 2, plus 1 when a number follows the text"
    public const uint NumberFollowsFlag = 1;

    // "Text (kind 2) := (varint32 prefixLength, varint64 number)"
    public const int TextPrefixAndNumber = 2;

    // "Text (kind 3) := (varint64 number)"
    public const int TextStemAndNumber = 3;

    // "number must be below 10^19, that is, have at most 19 digits (Malformed otherwise)."
    public const int MaxNumberDigits = 19;
    public const ulong NumberLimit = 10_000_000_000_000_000_000;

    // "a member takes at least 3 bytes": flags, a 1-byte integer value and a 1-byte time delta.
    public const int MinMemberBytes = 3;

    // "The integer form may be used when the double is integral, -2^63 <= value < 2^63, and not -0.0"
    public const double TwoToThe63 = 9_223_372_036_854_775_808.0;

    // The most bytes a member takes apart from its text bytes: flags, id delta, three times (prefix length,
    // text length, number), value and time delta. The writer reserves this much once per member.
    public const int MaxMemberFixedBytes = 1 + MaxVarUInt32Bytes + (3 * ((2 * MaxVarUInt32Bytes) + MaxVarUInt64Bytes)) + (2 * MaxVarUInt64Bytes);
}
