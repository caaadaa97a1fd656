using System.Globalization;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;
using WebSerialization.Api.Diagnostics;

namespace WebSerialization.Api.Limits;

/// <summary>
/// Caps how many heavy requests run at once, so a burst of million-member downloads and uploads is answered with
/// 429 and Retry-After straight away instead of sharing the cores ever thinner. Each of them holds about a chunk of
/// memory (uploads and conversions go member by member), so the cap is about time and a conversion's temporary file,
/// not the heap (docs/configuration.md). Light requests (small counts, health, docs) are never limited.
/// </summary>
public static class HeavyRequestLimiter
{
    /// <summary>The policy name endpoints opt in with.</summary>
    public const string Policy = "heavy";

    /// <summary>Registers the limiter.</summary>
    public static IServiceCollection AddHeavyRequestLimiter(this IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<UploadLimitsOptions>(configuration.GetSection(UploadLimitsOptions.Section));
        services.AddRateLimiter(options =>
        {
            options.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            options.AddPolicy(Policy, httpContext =>
            {
                var limits = httpContext.RequestServices.GetRequiredService<IOptions<UploadLimitsOptions>>().Value;
                return IsHeavy(httpContext.Request, limits)
                    ? RateLimitPartition.GetConcurrencyLimiter(Policy, _ => new ConcurrencyLimiterOptions { PermitLimit = limits.MaxConcurrentHeavyRequests, QueueLimit = 0 })
                    : RateLimitPartition.GetNoLimiter("light");
            });
            options.OnRejected = async (context, cancellationToken) =>
            {
                var limits = context.HttpContext.RequestServices.GetRequiredService<IOptions<UploadLimitsOptions>>().Value;
                context.HttpContext.Response.Headers[HeaderNames.RetryAfter] = limits.RetryAfterSeconds.ToString(CultureInfo.InvariantCulture);
                await ProblemResponses.Problem(
                    StatusCodes.Status429TooManyRequests,
                    "Too Many Requests",
                    $"The server is already serving {limits.MaxConcurrentHeavyRequests} large requests; retry after {limits.RetryAfterSeconds} s.")
                    .ExecuteAsync(context.HttpContext);
            };
        });
        return services;
    }

    private static bool IsHeavy(HttpRequest request, UploadLimitsOptions limits)
    {
        if (!HttpMethods.IsGet(request.Method))
        {
            return true;
        }

        // A count that does not parse is rejected by the endpoint at once, so it is light; an omitted count means all members.
        var count = request.Query["count"].ToString();
        return count.Length == 0 || (int.TryParse(count, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > limits.HeavyDownloadMembers);
    }
}
