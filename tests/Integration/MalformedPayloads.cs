namespace WebSerialization.IntegrationTests;

/// <summary>Hand-made bad bodies, each a few bytes, built from the formats' published layouts.</summary>
public static class MalformedPayloads
{
    // docs/binary-format.md: magic "WSBF", version 1, organizationId 1 as zigzag varint (02).
    private static readonly byte[] BinaryHeader = [0x57, 0x53, 0x42, 0x46, 0x01, 0x02];

    /// <summary>The body a theory row names: "invalid UTF-8", "bomb" or "nesting" (below), or JSON written out.</summary>
    public static byte[] Named(string name, WireFormat format) => name switch
    {
        "invalid UTF-8" => InvalidUtf8(format),
        "bomb" => Bomb(format),
        "nesting" => DeepNesting(format),
        _ when name == "null" || name.StartsWith('{') => Encoding.UTF8.GetBytes(name),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "Not a body's name, nor JSON."),
    };

    /// <summary>One tag whose UTF-8 is broken (C3 28: a lead byte followed by an ASCII byte).</summary>
    public static byte[] InvalidUtf8(WireFormat format) => format.Key switch
    {
        "json" => [.. "{\"id\":1,\"tags\":[\""u8, 0xC3, 0x28, .. "\"],\"members\":[]}"u8],
        // [1, ["\xC3("], []]
        "msgpack" => [0x93, 0x01, 0x91, 0xA2, 0xC3, 0x28, 0x90],
        // field 2 (Tags), length 2, C3 28
        "protobuf" => [0x12, 0x02, 0xC3, 0x28],
        // tagCountPlusOne 2, lengthPlusOne 3, C3 28, memberCountPlusOne 1
        "binary" => [.. BinaryHeader, 0x02, 0x03, 0xC3, 0x28, 0x01],
        _ => throw new ArgumentOutOfRangeException(nameof(format)),
    };

    /// <summary>A tiny body that declares far more than it holds.</summary>
    public static byte[] Bomb(WireFormat format) => format.Key switch
    {
        // JSON declares no lengths; the nearest thing is a number no int can hold.
        "json" => Encoding.UTF8.GetBytes("{\"id\":1" + new string('0', 400) + "}"),
        // [1, nil, array32 of 4,294,967,295 members]
        "msgpack" => [0x93, 0x01, 0xC0, 0xDD, 0xFF, 0xFF, 0xFF, 0xFF],
        // field 3 (Members) declaring 2^31 - 1 bytes
        "protobuf" => [0x1A, 0xFF, 0xFF, 0xFF, 0xFF, 0x07],
        // no tags, memberCountPlusOne = 2^32 - 1
        "binary" => [.. BinaryHeader, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],
        _ => throw new ArgumentOutOfRangeException(nameof(format)),
    };

    /// <summary>Tags nested 100 arrays deep, where the model has a flat list of strings.</summary>
    public static byte[] DeepNesting(WireFormat format) => format.Key switch
    {
        "json" => Encoding.UTF8.GetBytes("{\"id\":1,\"tags\":" + new string('[', 100) + new string(']', 100) + ",\"members\":[]}"),
        "msgpack" => [0x93, 0x01, .. Enumerable.Repeat((byte)0x91, 100), 0xA0, 0x90],
        _ => throw new ArgumentOutOfRangeException(nameof(format)),
    };
}
