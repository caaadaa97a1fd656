using System.Diagnostics;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Diagnostics;

namespace WebSerialization.Api.Limits;

/// <summary>
/// What keeps a heavy slot from being held by a slow client: Kestrel's minimum data rates, in both directions, and a
/// deadline for the whole request. A cut client is logged at Information; its slot is free once the pipeline unwinds,
/// which the abort makes immediate.
/// </summary>
/// <remarks>
/// The rates are Kestrel's server-wide ones rather than per request: HTTP/2 (gRPC) has no per-request response rate,
/// and a light request ends well inside the grace period, before a rate is ever checked.
/// </remarks>
public sealed partial class HeavyRequestGuard(RequestDelegate next, IOptions<HeavyRequestOptions> options, ILogger<HeavyRequestGuard> logger)
{
    /// <summary>Serves the request; a heavy one under its deadline, and logged if it was cut.</summary>
    public async Task InvokeAsync(HttpContext context)
    {
        var limits = options.Value;
        if (!HeavyRequestLimiter.IsHeavy(context, limits))
        {
            await next(context);
            return;
        }

        var started = Stopwatch.GetTimestamp();
        var serverBody = context.Features.GetRequiredFeature<IHttpResponseBodyFeature>();

        // The request log's counting body, when it is the one this request writes to, counts the same bytes: a
        // response is wrapped once, not twice.
        var countingBody = serverBody as CountingResponseBodyFeature;
        var wrapped = countingBody is null;
        countingBody ??= new CountingResponseBodyFeature(serverBody);
        if (wrapped)
        {
            context.Features.Set<IHttpResponseBodyFeature>(countingBody);
        }
        var overtime = 0;
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(limits.MaxHeavyRequestSeconds));
        var registration = deadline.Token.Register(() =>
        {
            Volatile.Write(ref overtime, 1);
            context.Abort();
        });
        try
        {
            await next(context);
        }
        finally
        {
            // Waits for a deadline callback that is running, so that it cannot abort a connection's next request.
            await registration.DisposeAsync();
            if (wrapped)
            {
                context.Features.Set(serverBody);
            }

            LogIfCut(context, limits, Volatile.Read(ref overtime) == 1, countingBody.ReaderGone, countingBody.BytesWritten, Stopwatch.GetElapsedTime(started).TotalSeconds);
        }
    }

    // Aborted: the token says so, or (before the server cancels it, on the thread pool) the body's pipe stopped taking bytes.
    private void LogIfCut(HttpContext context, HeavyRequestOptions limits, bool overtime, bool readerGone, long bytesSent, double seconds)
    {
        var request = context.Request;
        var client = ClientPartition.Of(context);
        if (overtime)
        {
            LogOvertime(logger, request.Method, request.Path.Value, client, seconds, limits.MaxHeavyRequestSeconds);
        }
        else if (context.Response.StatusCode == StatusCodes.Status408RequestTimeout)
        {
            // Kestrel's verdict on a body read below the minimum rate (the only 408 this app answers).
            LogSlowSender(logger, request.Method, request.Path.Value, client, seconds, limits.MinDataRateBytesPerSecond);
        }
        else if ((context.RequestAborted.IsCancellationRequested || readerGone) && limits.MinDataRateBytesPerSecond > 0
            && seconds > limits.MinDataRateGraceSeconds && bytesSent < limits.MinDataRateBytesPerSecond * seconds)
        {
            // Kestrel aborts a connection whose answer is read below the minimum rate, and says so only at Debug: an
            // aborted answer that averaged below it is taken for that (a client that left says so in the request log).
            LogSlowReader(logger, request.Method, request.Path.Value, client, seconds, bytesSent, limits.MinDataRateBytesPerSecond);
        }
    }

    [LoggerMessage(EventId = 31, Level = LogLevel.Information,
        Message = "Cut {Method} {Path} from {Client} after {Seconds:0.0} s: a heavy request may last {MaxSeconds} s (Limits:MaxHeavyRequestSeconds); its slot is free")]
    private static partial void LogOvertime(ILogger logger, string method, string? path, string client, double seconds, double maxSeconds);

    [LoggerMessage(EventId = 32, Level = LogLevel.Information,
        Message = "Cut {Method} {Path} from {Client} after {Seconds:0.0} s: its body arrived below {MinBytesPerSecond} bytes/s (Limits:MinDataRateBytesPerSecond); its slot is free")]
    private static partial void LogSlowSender(ILogger logger, string method, string? path, string client, double seconds, int minBytesPerSecond);

    [LoggerMessage(EventId = 33, Level = LogLevel.Information,
        Message = "Cut {Method} {Path} from {Client} after {Seconds:0.0} s and {Bytes} bytes: it read the answer below {MinBytesPerSecond} bytes/s (Limits:MinDataRateBytesPerSecond); its slot is free")]
    private static partial void LogSlowReader(ILogger logger, string method, string? path, string client, double seconds, long bytes, int minBytesPerSecond);
}

/// <summary>Registration of <see cref="HeavyRequestGuard"/> and the Kestrel rates it relies on.</summary>
public static class HeavyRequestGuardExtensions
{
    /// <summary>Sets Kestrel's minimum request-body and response data rates from <see cref="HeavyRequestOptions"/>; 0 turns them off.</summary>
    public static IServiceCollection AddHeavyRequestGuard(this IServiceCollection services, IConfiguration configuration)
    {
        var limits = configuration.GetSection(UploadLimitsOptions.Section).Get<HeavyRequestOptions>() ?? new HeavyRequestOptions();
        services.Configure<KestrelServerOptions>(kestrel =>
        {
            var rate = limits.MinDataRateBytesPerSecond > 0
                ? new MinDataRate(limits.MinDataRateBytesPerSecond, TimeSpan.FromSeconds(limits.MinDataRateGraceSeconds))
                : null;
            kestrel.Limits.MinRequestBodyDataRate = rate;
            kestrel.Limits.MinResponseDataRate = rate;
        });
        return services;
    }

    /// <summary>Puts heavy requests under their deadline; after the rate limiter, so only requests holding a slot.</summary>
    public static IApplicationBuilder UseHeavyRequestGuard(this IApplicationBuilder app) => app.UseMiddleware<HeavyRequestGuard>();
}
