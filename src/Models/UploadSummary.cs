using ProtoBuf;

namespace WebSerialization.Models;

/// <summary>
/// What the server found in an uploaded organization (<c>POST /api/organization</c>). The checksum is the
/// <see cref="OrganizationChecksum"/> of the decoded content, the same whatever the format, so a client can check
/// that a round trip kept every value. Protobuf field numbers follow the property order (1..6); protobuf-net reads
/// and writes it as the answer of the gRPC upload, and the HTTP endpoint's protobuf writer writes the same fields.
/// </summary>
/// <param name="Format">The <c>format</c> key of the body's format.</param>
/// <param name="MemberCount">Members decoded (0 when the organization has none or null).</param>
/// <param name="TagCount">Tags decoded.</param>
/// <param name="BytesRead">Bytes of request body read.</param>
/// <param name="DecodeMilliseconds">Time from the first byte read to the last member decoded and folded into the checksum.</param>
/// <param name="Checksum">The content checksum, lowercase hex.</param>
[ProtoContract(SkipConstructor = true)]
public sealed record UploadSummary(
    [property: ProtoMember(1)] string Format,
    [property: ProtoMember(2)] int MemberCount,
    [property: ProtoMember(3)] int TagCount,
    [property: ProtoMember(4)] long BytesRead,
    [property: ProtoMember(5)] double DecodeMilliseconds,
    [property: ProtoMember(6)] string Checksum);
