namespace WebSerialization.Benchmarks.Contenders;

/// <summary>Which format a row writes; the targets compare rows across families.</summary>
public enum ContenderFamily
{
    /// <summary>JSON through System.Text.Json.</summary>
    Json,

    /// <summary>MessagePack, array-keyed: MessagePack-CSharp and our codec, which write the same bytes.</summary>
    MessagePack,

    /// <summary>protobuf: protobuf-net and our codec, which write the same bytes (but for -0.0: docs/libraries.md).</summary>
    Protobuf,

    /// <summary>This project's binary format (docs/binary-format.md).</summary>
    Binary,

    /// <summary>The seed article's BinaryWriter/BinaryReader helper.</summary>
    SeedBinaryWriter,

    /// <summary>The seed article's smallest row: MessagePack-CSharp with its Lz4BlockArray compression.</summary>
    SeedCompressedMessagePack,

    /// <summary>Not a format: the least work any serializer of the object model does, a measuring stick.</summary>
    Floor,
}
