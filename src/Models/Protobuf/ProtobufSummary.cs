using System.Buffers;
using Google.Protobuf;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// An <see cref="UploadSummary"/> in protobuf: <c>message UploadSummary</c> of <see cref="ProtobufSchema"/>, fields
/// 1..6 in property order. Every field is written, zeros included, so a reader never has to guess a default.
/// </summary>
public static class ProtobufSummary
{
    /// <summary>Writes <paramref name="summary"/> into <paramref name="output"/>.</summary>
    public static void Write(IBufferWriter<byte> output, UploadSummary summary)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(summary);
        var message = new byte[
            1 + CodedOutputStream.ComputeStringSize(summary.Format)
            + 1 + CodedOutputStream.ComputeInt32Size(summary.MemberCount)
            + 1 + CodedOutputStream.ComputeInt32Size(summary.TagCount)
            + 1 + CodedOutputStream.ComputeInt64Size(summary.BytesRead)
            + 1 + sizeof(double)
            + 1 + CodedOutputStream.ComputeStringSize(summary.Checksum)];
        var coded = new CodedOutputStream(message);
        coded.WriteTag(1, ProtoWireFormat.WireType.LengthDelimited);
        coded.WriteString(summary.Format);
        coded.WriteTag(2, ProtoWireFormat.WireType.Varint);
        coded.WriteInt32(summary.MemberCount);
        coded.WriteTag(3, ProtoWireFormat.WireType.Varint);
        coded.WriteInt32(summary.TagCount);
        coded.WriteTag(4, ProtoWireFormat.WireType.Varint);
        coded.WriteInt64(summary.BytesRead);
        coded.WriteTag(5, ProtoWireFormat.WireType.Fixed64);
        coded.WriteDouble(summary.DecodeMilliseconds);
        coded.WriteTag(6, ProtoWireFormat.WireType.LengthDelimited);
        coded.WriteString(summary.Checksum);
        coded.CheckNoSpaceLeft();
        output.Write(message);
    }
}
