namespace WebSerialization.Models.MessagePack;

/// <summary>
/// The first bytes of the MessagePack formats and the limits of their embedded values, in the order of the
/// "Formats / Overview" table of the specification (https://github.com/msgpack/msgpack/blob/master/spec.md).
/// Multi-byte lengths, counts and numbers that follow a first byte are big-endian.
/// </summary>
internal static class MessagePackWire
{
    /// <summary>positive fixint <c>0xxxxxxx</c>: a 7-bit positive integer in the byte itself.</summary>
    public const byte MinFixInt = 0x00;

    /// <summary>Last byte of the positive fixint range.</summary>
    public const byte MaxFixInt = 0x7f;

    /// <summary>fixmap <c>1000xxxx</c>: a map of up to 15 key-value pairs.</summary>
    public const byte MinFixMap = 0x80;

    /// <summary>Last byte of the fixmap range.</summary>
    public const byte MaxFixMap = 0x8f;

    /// <summary>fixarray <c>1001xxxx</c>: an array of up to 15 elements.</summary>
    public const byte MinFixArray = 0x90;

    /// <summary>Last byte of the fixarray range.</summary>
    public const byte MaxFixArray = 0x9f;

    /// <summary>fixstr <c>101xxxxx</c>: a string of up to 31 bytes.</summary>
    public const byte MinFixStr = 0xa0;

    /// <summary>Last byte of the fixstr range.</summary>
    public const byte MaxFixStr = 0xbf;

    /// <summary>nil <c>0xc0</c>.</summary>
    public const byte Nil = 0xc0;

    /// <summary>(never used) <c>0xc1</c>.</summary>
    public const byte NeverUsed = 0xc1;

    /// <summary>false <c>0xc2</c>.</summary>
    public const byte False = 0xc2;

    /// <summary>true <c>0xc3</c>.</summary>
    public const byte True = 0xc3;

    /// <summary>bin 8 <c>0xc4</c>: 8-bit length, then the bytes.</summary>
    public const byte Bin8 = 0xc4;

    /// <summary>bin 16 <c>0xc5</c>: 16-bit length, then the bytes.</summary>
    public const byte Bin16 = 0xc5;

    /// <summary>bin 32 <c>0xc6</c>: 32-bit length, then the bytes.</summary>
    public const byte Bin32 = 0xc6;

    /// <summary>ext 8 <c>0xc7</c>: 8-bit length, type, data.</summary>
    public const byte Ext8 = 0xc7;

    /// <summary>ext 16 <c>0xc8</c>: 16-bit length, type, data.</summary>
    public const byte Ext16 = 0xc8;

    /// <summary>ext 32 <c>0xc9</c>: 32-bit length, type, data.</summary>
    public const byte Ext32 = 0xc9;

    /// <summary>float 32 <c>0xca</c>: a big-endian IEEE 754 single precision number.</summary>
    public const byte Float32 = 0xca;

    /// <summary>float 64 <c>0xcb</c>: a big-endian IEEE 754 double precision number.</summary>
    public const byte Float64 = 0xcb;

    /// <summary>uint 8 <c>0xcc</c>: an 8-bit unsigned integer.</summary>
    public const byte UInt8 = 0xcc;

    /// <summary>uint 16 <c>0xcd</c>: a 16-bit big-endian unsigned integer.</summary>
    public const byte UInt16 = 0xcd;

    /// <summary>uint 32 <c>0xce</c>: a 32-bit big-endian unsigned integer.</summary>
    public const byte UInt32 = 0xce;

    /// <summary>uint 64 <c>0xcf</c>: a 64-bit big-endian unsigned integer.</summary>
    public const byte UInt64 = 0xcf;

    /// <summary>int 8 <c>0xd0</c>: an 8-bit signed integer.</summary>
    public const byte Int8 = 0xd0;

    /// <summary>int 16 <c>0xd1</c>: a 16-bit big-endian signed integer.</summary>
    public const byte Int16 = 0xd1;

    /// <summary>int 32 <c>0xd2</c>: a 32-bit big-endian signed integer.</summary>
    public const byte Int32 = 0xd2;

    /// <summary>int 64 <c>0xd3</c>: a 64-bit big-endian signed integer.</summary>
    public const byte Int64 = 0xd3;

    /// <summary>fixext 1 <c>0xd4</c>: type, then 1 byte of data.</summary>
    public const byte FixExt1 = 0xd4;

    /// <summary>fixext 2 <c>0xd5</c>: type, then 2 bytes of data.</summary>
    public const byte FixExt2 = 0xd5;

    /// <summary>fixext 4 <c>0xd6</c>: type, then 4 bytes of data.</summary>
    public const byte FixExt4 = 0xd6;

    /// <summary>fixext 8 <c>0xd7</c>: type, then 8 bytes of data.</summary>
    public const byte FixExt8 = 0xd7;

    /// <summary>fixext 16 <c>0xd8</c>: type, then 16 bytes of data.</summary>
    public const byte FixExt16 = 0xd8;

    /// <summary>str 8 <c>0xd9</c>: 8-bit byte length, then UTF-8 bytes.</summary>
    public const byte Str8 = 0xd9;

    /// <summary>str 16 <c>0xda</c>: 16-bit big-endian byte length, then UTF-8 bytes.</summary>
    public const byte Str16 = 0xda;

    /// <summary>str 32 <c>0xdb</c>: 32-bit big-endian byte length, then UTF-8 bytes.</summary>
    public const byte Str32 = 0xdb;

    /// <summary>array 16 <c>0xdc</c>: 16-bit big-endian element count, then the elements.</summary>
    public const byte Array16 = 0xdc;

    /// <summary>array 32 <c>0xdd</c>: 32-bit big-endian element count, then the elements.</summary>
    public const byte Array32 = 0xdd;

    /// <summary>map 16 <c>0xde</c>: 16-bit big-endian pair count, then the pairs.</summary>
    public const byte Map16 = 0xde;

    /// <summary>map 32 <c>0xdf</c>: 32-bit big-endian pair count, then the pairs.</summary>
    public const byte Map32 = 0xdf;

    /// <summary>negative fixint <c>111yyyyy</c>: a 5-bit negative integer, the byte read as signed.</summary>
    public const byte MinNegativeFixInt = 0xe0;

    /// <summary>Last byte of the negative fixint range.</summary>
    public const byte MaxNegativeFixInt = 0xff;

    /// <summary>Largest value a positive fixint holds.</summary>
    public const int MaxFixIntValue = 0x7f;

    /// <summary>Smallest value a negative fixint holds.</summary>
    public const int MinNegativeFixIntValue = -32;

    /// <summary>Most bytes a fixstr holds (5 bits).</summary>
    public const int MaxFixStrLength = 31;

    /// <summary>Most elements a fixarray holds (4 bits).</summary>
    public const int MaxFixArrayCount = 15;

    /// <summary>The specification's name of the format that <paramref name="code"/> starts, for error messages.</summary>
    public static string FormatName(byte code) => code switch
    {
        <= MaxFixInt => "positive fixint",
        <= MaxFixMap => "fixmap",
        <= MaxFixArray => "fixarray",
        <= MaxFixStr => "fixstr",
        Nil => "nil",
        NeverUsed => "(never used)",
        False => "false",
        True => "true",
        Bin8 => "bin 8",
        Bin16 => "bin 16",
        Bin32 => "bin 32",
        Ext8 => "ext 8",
        Ext16 => "ext 16",
        Ext32 => "ext 32",
        Float32 => "float 32",
        Float64 => "float 64",
        UInt8 => "uint 8",
        UInt16 => "uint 16",
        UInt32 => "uint 32",
        UInt64 => "uint 64",
        Int8 => "int 8",
        Int16 => "int 16",
        Int32 => "int 32",
        Int64 => "int 64",
        FixExt1 => "fixext 1",
        FixExt2 => "fixext 2",
        FixExt4 => "fixext 4",
        FixExt8 => "fixext 8",
        FixExt16 => "fixext 16",
        Str8 => "str 8",
        Str16 => "str 16",
        Str32 => "str 32",
        Array16 => "array 16",
        Array32 => "array 32",
        Map16 => "map 16",
        Map32 => "map 32",
        _ => "negative fixint",
    };
}
