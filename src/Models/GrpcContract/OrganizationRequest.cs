using ProtoBuf;

namespace WebSerialization.Models.GrpcContract;

/// <summary>Which organization a gRPC call asks for.</summary>
[ProtoContract]
public sealed class OrganizationRequest
{
    /// <summary>
    /// How many members, from 1 to the server's member count; 0 means all of them. Proto3 cannot tell an unset
    /// <c>int32</c> from 0, so 0 stands where <c>GET /api/organization</c> has no <c>count</c>; a negative count or
    /// one above the server's is <c>INVALID_ARGUMENT</c>.
    /// </summary>
    [ProtoMember(1)]
    public int Count { get; set; }
}
