namespace WebSerialization.Models;

/// <summary>The four encodings of an <see cref="Organization"/> that the API serves and accepts.</summary>
public enum WireFormat
{
    /// <summary>UTF-8 JSON with camelCase names.</summary>
    Json,

    /// <summary>MessagePack, array-keyed: an Organization is a 3-element array, a Member a 6-element array.</summary>
    MessagePack,

    /// <summary>Protocol Buffers, as described by <c>GET /api/organization.proto</c>.</summary>
    Protobuf,

    /// <summary>This project's own binary format, specified in docs/binary-format.md.</summary>
    Binary,
}
