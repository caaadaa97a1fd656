using System.Globalization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Formats;
using WebSerialization.Api.Lifecycle;
using WebSerialization.Api.Limits;
using WebSerialization.Models.GrpcContract;
using WebSerialization.Models;

namespace WebSerialization.Api.Organizations;

/// <summary>The organization endpoints: the four-format GET, the list of formats and the protobuf schema.</summary>
public static class OrganizationApi
{
    /// <summary>Where the protobuf schema is served.</summary>
    public const string SchemaPath = "/api/organization.proto";

    /// <summary>Registers the organization's services.</summary>
    public static IServiceCollection AddOrganizations(this IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<OrganizationOptions>(configuration.GetSection(OrganizationOptions.Section));
        services.AddUploadLimits();
        services.AddSingleton<SeedOrganization>();
        services.AddHostedService<SeedOrganizationWarmUp>();
        services.AddSingleton<HttpWarmUp>();
        services.AddHostedService(provider => provider.GetRequiredService<HttpWarmUp>());
        services.AddHealthChecks().AddLifecycleCheck<HttpWarmUp>("http-warm-up");
        return services;
    }

    /// <summary>Maps <c>/api/organization</c>, <c>/api/formats</c> and <c>/api/organization.proto</c>.</summary>
    public static RouteGroupBuilder MapOrganizations(this IEndpointRouteBuilder routes)
    {
        var api = routes.MapGroup("/api").WithTags("Organization");

        // What every endpoint of the organization shares: the heavy-request limiter, and the problems a request can
        // meet whatever it does (a bad parameter, nothing it accepts, no free slot). The group adds no path: an
        // endpoint with an empty pattern under "/organization" would be "/api/organization/", a different route label.
        var organization = api.MapGroup(string.Empty)
            .RequireRateLimiting(HeavyRequestLimiter.Policy)
            .ProducesProblem(StatusCodes.Status400BadRequest)
            .ProducesProblem(StatusCodes.Status406NotAcceptable)
            .ProducesProblem(StatusCodes.Status429TooManyRequests);

        organization.MapGet("/organization", GetOrganization)
            .WithName("GetOrganization")
            .WithSummary("The organization with its first `count` members, in the format chosen by Accept or `?format=`.")
            .ProducesFormats(typeof(Organization), WireFormat.All);

        api.MapGet("/formats", () => TypedResults.Ok(WireFormat.All))
            .WithName("GetFormats")
            .WithSummary("The formats, with their media types, aliases and `format` keys.");

        routes.MapGet(SchemaPath, () => TypedResults.Text(ProtobufSchema.Text, "text/plain; charset=utf-8"))
            .WithTags("Organization")
            .WithName("GetProtobufSchema")
            .WithSummary("The protobuf schema of the organization, for generating a client in another language.");

        organization.MapOrganizationUploads();
        return api;
    }

    private static IResult GetOrganization(
        HttpContext httpContext,
        SeedOrganization seed,
        IOptions<OrganizationOptions> options,
        [FromQuery] string? count,
        [FromQuery] string? format)
    {
        if (!MemberCountParameter.TryRead(count, seed.MemberCount, out var memberCount))
        {
            return ProblemResponses.Problem(StatusCodes.Status400BadRequest, "Invalid count", MemberCountParameter.Invalid(count!, seed.MemberCount));
        }

        var negotiated = AcceptHeaderNegotiator.Negotiate(format, httpContext.Request.Headers.Accept);
        if (negotiated is null)
        {
            httpContext.Response.Headers.Vary = "Accept";
            return ProblemResponses.NotAcceptable(format is not null
                ? $"Unknown format '{format}'. Use one of the format keys listed here, or an Accept header."
                : "None of the media types in the Accept header is available. Ask for one of those listed here.");
        }

        return new OrganizationResult(seed.Value, memberCount, negotiated, options.Value.ChunkSize);
    }
}
