using MessagePack;
using ProtoBuf;

namespace WebSerialization.Models;

/// <summary>
/// What the server found in an uploaded organization (<c>POST /api/organization</c>). The checksum is the
/// <see cref="OrganizationChecksum"/> of the decoded content, the same whatever the format, so a client can check
/// that a round trip kept every value. MessagePack keys (0..5) and protobuf field numbers (1..6) follow the property
/// order; MessagePack-CSharp and protobuf-net write it for the HTTP endpoint and the gRPC upload alike.
/// </summary>
/// <param name="Format">The <c>format</c> key of the body's format.</param>
/// <param name="MemberCount">Members decoded (0 when the organization has none or null).</param>
/// <param name="TagCount">Tags decoded.</param>
/// <param name="BytesRead">Bytes of request body read.</param>
/// <param name="DecodeMilliseconds">Time from the first byte read to the last member decoded and folded into the checksum.</param>
/// <param name="Checksum">The content checksum, lowercase hex.</param>
[MessagePackObject]
[ProtoContract(SkipConstructor = true)]
public sealed record UploadSummary(
    [property: Key(0), ProtoMember(1)] string Format,
    [property: Key(1), ProtoMember(2)] int MemberCount,
    [property: Key(2), ProtoMember(3)] int TagCount,
    [property: Key(3), ProtoMember(4)] long BytesRead,
    [property: Key(4), ProtoMember(5)] double DecodeMilliseconds,
    [property: Key(5), ProtoMember(6)] string Checksum);
