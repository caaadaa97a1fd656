using ProtoBuf.Grpc;
using ProtoBuf.Grpc.Configuration;

namespace WebSerialization.Models.GrpcContract;

/// <summary>
/// The organization over gRPC, code first (protobuf-net.Grpc): the service <c>webserialization.OrganizationService</c>
/// of <c>/api/organization.proto</c>. A .NET client needs only this assembly:
/// <c>GrpcChannel.ForAddress(url).CreateGrpcService&lt;IOrganizationService&gt;()</c>.
/// </summary>
[Service("webserialization.OrganizationService")]
public interface IOrganizationService
{
    /// <summary>
    /// The organization with its first <see cref="OrganizationRequest.Count"/> members, as one message (a million
    /// members are about 87 MB: raise the client's receive limit). Over the server's send limit the call fails with
    /// <c>RESOURCE_EXHAUSTED</c>; a count out of range with <c>INVALID_ARGUMENT</c>.
    /// </summary>
    [Operation("GetOrganization")]
    ValueTask<Organization> GetOrganizationAsync(OrganizationRequest request, CallContext context = default);

    /// <summary>
    /// The same organization as a server stream: a first <see cref="OrganizationPart"/> with its id and tags, then
    /// parts of at most the server's batch size of members each.
    /// </summary>
    [Operation("StreamOrganization")]
    IAsyncEnumerable<OrganizationPart> StreamOrganizationAsync(OrganizationRequest request, CallContext context = default);

    /// <summary>
    /// Reads an organization sent as parts (as <see cref="StreamOrganizationAsync"/> sends them) and answers what it
    /// found, with the checksum that <c>POST /api/organization</c> answers for the same content. A malformed or
    /// over-limit stream fails with <c>INVALID_ARGUMENT</c> or <c>RESOURCE_EXHAUSTED</c>.
    /// </summary>
    [Operation("UploadOrganization")]
    ValueTask<UploadSummary> UploadOrganizationAsync(IAsyncEnumerable<OrganizationPart> parts, CallContext context = default);
}
