namespace WebSerialization.Benchmarks.Contenders;

/// <summary>Which format a row writes; the targets compare rows across families.</summary>
public enum ContenderFamily
{
    /// <summary>JSON through System.Text.Json.</summary>
    Json,

    /// <summary>MessagePack, array-keyed, through our spec-exact codec.</summary>
    MessagePack,

    /// <summary>protobuf through Google.Protobuf's coded streams.</summary>
    Protobuf,

    /// <summary>This project's binary format (docs/binary-format.md).</summary>
    Binary,

    /// <summary>The seed article's BinaryWriter/BinaryReader helper.</summary>
    SeedBinaryWriter,

    /// <summary>The seed article's MessagePack with MessagePack-CSharp's Lz4BlockArray compression.</summary>
    SeedCompressedMessagePack,

    /// <summary>Not a format: the least work any serializer of the object model does, a measuring stick.</summary>
    Floor,
}
