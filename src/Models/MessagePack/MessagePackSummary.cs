using System.Buffers;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// An <see cref="UploadSummary"/> in MessagePack: a 6-element array in property order,
/// <c>[format: str, memberCount: int, tagCount: int, bytesRead: int, decodeMilliseconds: float64, checksum: str]</c>.
/// </summary>
public static class MessagePackSummary
{
    /// <summary>Writes <paramref name="summary"/> into <paramref name="output"/>.</summary>
    public static void Write(IBufferWriter<byte> output, UploadSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        var writer = new MessagePackBufferWriter(output);
        writer.WriteArrayHeader(6);
        writer.WriteString(summary.Format);
        writer.WriteInteger(summary.MemberCount);
        writer.WriteInteger(summary.TagCount);
        writer.WriteInteger(summary.BytesRead);
        writer.WriteFloat64(summary.DecodeMilliseconds);
        writer.WriteString(summary.Checksum);
        writer.Flush();
    }
}
