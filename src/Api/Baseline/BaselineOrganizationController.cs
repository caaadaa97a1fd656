using System.Globalization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.RateLimiting;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Formats;
using WebSerialization.Api.Limits;
using WebSerialization.Api.Organizations;
using WebSerialization.Models.Baseline;
using WebSerialization.Models;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// <c>GET</c> and <c>POST /api/mvc/organization</c>: the organization as MVC serves it with the stock formatters,
/// negotiated by MVC itself. The same data, counts and limits as <c>/api/organization</c>, so the two can be
/// measured side by side; the differences in negotiation are listed in docs/performance.md.
/// </summary>
[ApiController]
[Route(BaselineContract.Route)]
[Tags(BaselineApi.Tag)]
[EnableRateLimiting(HeavyRequestLimiter.Policy)]
public sealed class BaselineOrganizationController(SeedOrganization seed) : ControllerBase
{
    /// <summary>The organization with its first <paramref name="count"/> members, written whole by the negotiated formatter.</summary>
    [HttpGet(Name = "GetOrganizationBaseline")]
    [FormatFilter]
    [Produces(WireMediaTypes.Json, WireMediaTypes.XMessagePack, WireMediaTypes.Protobuf, WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf)]
    [ProducesResponseType<Organization>(StatusCodes.Status200OK)]

    // No content type on these: [FormatFilter] checks ?format= against the content types of the last response-type
    // attribute, and application/problem+json there would turn every ?format= but json into a 404.
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status404NotFound)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status406NotAcceptable)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status429TooManyRequests)]
    [EndpointSummary("The organization with its first `count` members, serialized whole by MVC's stock formatters; `?format=json|msgpack|protobuf` through MVC's [FormatFilter].")]
    public IActionResult Get([FromQuery] int? count)
    {
        var all = seed.Value;
        if (count is < 0 || count > seed.MemberCount)
        {
            return new ProblemActionResult(ProblemResponses.Problem(
                StatusCodes.Status400BadRequest,
                "Invalid count",
                MemberCountParameter.Invalid(count.Value.ToString(CultureInfo.InvariantCulture), seed.MemberCount)));
        }

        // What an MVC action does to serve part of a list: a new list of the first members (the shared object itself
        // when all of them are asked for).
        var organization = count is not { } n || n == seed.MemberCount
            ? all
            : new Organization { Id = all.Id, Tags = all.Tags, Members = all.Members!.GetRange(0, n) };
        return Ok(organization);
    }

    /// <summary>Binds an uploaded organization through MVC's input formatters and answers the same summary as <c>POST /api/organization</c>.</summary>
    [HttpPost(Name = "PostOrganizationBaseline")]
    [Consumes(WireMediaTypes.Json, WireMediaTypes.XMessagePack, WireMediaTypes.Protobuf, WireMediaTypes.XProtobuf, WireMediaTypes.GoogleProtobuf)]
    [Produces(WireMediaTypes.Json)]
    [ServiceFilter<BaselineUploadFilter>]
    [ProducesResponseType<UploadSummary>(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, WireMediaTypes.ProblemJson)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status413PayloadTooLarge, WireMediaTypes.ProblemJson)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status415UnsupportedMediaType, WireMediaTypes.ProblemJson)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status429TooManyRequests, WireMediaTypes.ProblemJson)]
    [EndpointSummary("Binds an organization sent as JSON, MessagePack (application/x-msgpack) or protobuf through MVC's stock input formatters, which read the whole body first, and answers the upload summary.")]
    public IActionResult Post([FromBody] Organization? organization)
    {
        var elapsed = BaselineUploadFilter.Elapsed(HttpContext);
        if (organization is null || organization.Members?.Contains(null!) == true)
        {
            return new ProblemActionResult(ProblemResponses.Problem(
                StatusCodes.Status400BadRequest,
                "Malformed body",
                organization is null ? "The body is null, not an organization." : "The organization has a null member."));
        }

        var format = ContentTypeFormats.Resolve(Request.ContentType) ?? WireFormat.Json;
        return Ok(new UploadSummary(
            format.Key,
            organization.Members?.Count ?? 0,
            organization.Tags?.Length ?? 0,
            Request.ContentLength ?? 0,
            elapsed.TotalMilliseconds,
            OrganizationChecksum.Compute(organization)));
    }
}
