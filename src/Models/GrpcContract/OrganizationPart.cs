using ProtoBuf;
using ProtoBuf.Grpc.Configuration;

namespace WebSerialization.Models.GrpcContract;

/// <summary>
/// One message of a streamed organization: the first carries the organization's <see cref="Id"/> and
/// <see cref="Tags"/>, each later one a batch of <see cref="Members"/>. The fields are <see cref="Organization"/>'s,
/// number for number, so the parts' bytes concatenated are one <c>Organization</c> message (protobuf merges repeated
/// fields by appending), and an upload is checked exactly as <c>POST /api/organization</c> checks that message.
/// </summary>
[ProtoContract]
public sealed class OrganizationPart : IPayloadLength
{
    /// <summary>The organization's id (protobuf field 1), in the first part.</summary>
    [ProtoMember(1)]
    public int Id { get; set; }

    /// <summary>The organization's tags (protobuf field 2), in the first part.</summary>
    [ProtoMember(2)]
    public string[]? Tags { get; set; }

    /// <summary>A batch of members (protobuf field 3), in order.</summary>
    [ProtoMember(3)]
    public List<Member>? Members { get; set; }

    /// <summary>The size of this message on the wire, when protobuf-net.Grpc read or wrote it (not serialized).</summary>
    public long PayloadLength { get; private set; }

    void IPayloadLength.SetLength(long length) => PayloadLength = length;
}
