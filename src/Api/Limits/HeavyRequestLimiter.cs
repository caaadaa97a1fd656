using System.Globalization;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Organizations;

namespace WebSerialization.Api.Limits;

/// <summary>
/// Caps how many heavy requests run at once, so a burst of million-member downloads and uploads is answered with
/// 429 and Retry-After straight away instead of sharing the cores ever thinner. Each of them holds about a chunk of
/// memory (uploads and conversions go member by member), so the cap is about time and a conversion's temporary file,
/// not the heap (docs/configuration.md). Light requests (small counts, health, docs) are never limited.
/// </summary>
/// <remarks>
/// Two limiters, both without a queue: the global one holds the total at <see cref="HeavyRequestOptions.MaxConcurrentHeavyRequests"/>,
/// and the endpoints' policy, partitioned by <see cref="ClientPartition"/>, holds each client at
/// <see cref="HeavyRequestOptions.MaxHeavyRequestsPerClient"/>. The middleware takes the global permit first and gives
/// it back when the client's own is refused, so a client over its share never holds a slot.
/// </remarks>
public static class HeavyRequestLimiter
{
    /// <summary>The policy name endpoints opt in with.</summary>
    public const string Policy = "heavy";

    /// <summary>Registers the limiter.</summary>
    public static IServiceCollection AddHeavyRequestLimiter(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<HeavyRequestOptions>().BindConfiguration(UploadLimitsOptions.Section);
        services.AddHeavyRequestGuard(configuration);
        services.AddRateLimiter(options =>
        {
            options.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            options.GlobalLimiter = PartitionedRateLimiter.Create<HttpContext, string>(httpContext =>
            {
                var limits = LimitsOf(httpContext);
                return IsHeavy(httpContext, limits)
                    ? RateLimitPartition.GetConcurrencyLimiter(Policy, _ => new ConcurrencyLimiterOptions { PermitLimit = limits.MaxConcurrentHeavyRequests, QueueLimit = 0 })
                    : RateLimitPartition.GetNoLimiter("light");
            });
            options.AddPolicy(Policy, httpContext =>
            {
                var limits = LimitsOf(httpContext);
                return IsHeavy(httpContext, limits)
                    ? RateLimitPartition.GetConcurrencyLimiter(ClientPartition.Of(httpContext), _ => new ConcurrencyLimiterOptions { PermitLimit = limits.MaxHeavyRequestsPerClient, QueueLimit = 0 })
                    : RateLimitPartition.GetNoLimiter("light");
            });
            options.OnRejected = async (context, cancellationToken) =>
            {
                var limits = LimitsOf(context.HttpContext);
                var detail = $"The server is already serving {limits.MaxConcurrentHeavyRequests} large requests, or {limits.MaxHeavyRequestsPerClient} of yours; retry after {limits.RetryAfterSeconds} s.";
                context.HttpContext.Response.Headers[HeaderNames.RetryAfter] = limits.RetryAfterSeconds.ToString(CultureInfo.InvariantCulture);
                if (GrpcRejection.IsGrpc(context.HttpContext.Request))
                {
                    GrpcRejection.Write(context.HttpContext.Response, detail);
                    return;
                }

                await ProblemResponses.Problem(StatusCodes.Status429TooManyRequests, "Too Many Requests", detail)
                    .ExecuteAsync(context.HttpContext);
            };
        });
        return services;
    }

    /// <summary>
    /// Whether the request is one the limits apply to: its endpoint opted in, and it is an upload, a conversion, a
    /// gRPC call, or a download of more than <see cref="HeavyRequestOptions.HeavyDownloadMembers"/> members.
    /// </summary>
    internal static bool IsHeavy(HttpContext httpContext, HeavyRequestOptions limits)
    {
        if (httpContext.GetEndpoint()?.Metadata.GetMetadata<EnableRateLimitingAttribute>()?.PolicyName != Policy)
        {
            return false;
        }

        var request = httpContext.Request;
        if (!HttpMethods.IsGet(request.Method))
        {
            return true;
        }

        // A count the endpoint refuses is answered at once, so it is light.
        var available = httpContext.RequestServices.GetRequiredService<IOptions<OrganizationOptions>>().Value.MemberCount;
        var count = request.Query[MemberCountParameter.Name];
        return MemberCountParameter.TryRead(count.Count == 0 ? null : count.ToString(), available, out var members)
            && members > limits.HeavyDownloadMembers;
    }

    private static HeavyRequestOptions LimitsOf(HttpContext httpContext) =>
        httpContext.RequestServices.GetRequiredService<IOptions<HeavyRequestOptions>>().Value;

    // A gRPC client reads a refusal from grpc-status, not from the HTTP status: a trailers-only response with
    // RESOURCE_EXHAUSTED, as the gRPC HTTP/2 protocol spells it.
    private static class GrpcRejection
    {
        public static bool IsGrpc(HttpRequest request) =>
            request.ContentType?.StartsWith("application/grpc", StringComparison.OrdinalIgnoreCase) == true;

        public static void Write(HttpResponse response, string detail)
        {
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = "application/grpc";
            response.Headers["grpc-status"] = "8";
            response.Headers["grpc-message"] = Uri.EscapeDataString(detail);
        }
    }
}
