using System.Diagnostics;
using Microsoft.AspNetCore.Http.Features;
using WebSerialization.Models;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Logs what the console needs per request and counts its body bytes. A request whose response is a 4xx or 5xx, or
/// whose connection was aborted, is a Warning line (RequestRejected, RequestFailed, RequestAborted); a successful
/// request's access line (RequestCompleted) is Information, which Production leaves off (docs/configuration.md).
/// ASP.NET Core's HttpLogging has no body-size field short of buffering the body, so the bytes are counted here by a
/// thin stand-in for the response body feature. Runs outside response compression, so the bytes counted are the
/// bytes sent. Bodies are never logged. The same count, and the format, feed <see cref="ResponseBodyMetrics"/> when
/// metrics are on. When the category is below Warning and metrics are off, the request passes untouched.
/// </summary>
public sealed partial class RequestLogMiddleware(RequestDelegate next, ILogger<RequestLogMiddleware> logger, IServiceProvider services)
{
    private readonly ResponseBodyMetrics? _metrics = services.GetService<ResponseBodyMetrics>();

    /// <summary>Serves the request, then logs it and counts its body bytes.</summary>
    public async Task InvokeAsync(HttpContext context)
    {
        var logging = logger.IsEnabled(LogLevel.Warning);
        if (!logging && _metrics is null)
        {
            await next(context);
            return;
        }

        var started = Stopwatch.GetTimestamp();
        var serverBody = context.Features.GetRequiredFeature<IHttpResponseBodyFeature>();
        var countingBody = new CountingResponseBodyFeature(serverBody);
        context.Features.Set<IHttpResponseBodyFeature>(countingBody);
        var threw = false;
        try
        {
            await next(context);
        }
        catch
        {
            threw = true;
            throw;
        }
        finally
        {
            context.Features.Set(serverBody);
            if (_metrics is not null)
            {
                _metrics.Record(context, FormatOf(context.Response.ContentType), countingBody.BytesWritten);
            }

            if (logging)
            {
                Log(context, threw, countingBody.ReaderGone, countingBody.BytesWritten, started);
            }
        }
    }

    private void Log(HttpContext context, bool threw, bool readerGone, long bytes, long started)
    {
        var response = context.Response;

        // An exception that escapes before the response starts becomes the server's own 500.
        var status = threw && !response.HasStarted ? StatusCodes.Status500InternalServerError : response.StatusCode;
        // Aborted: the token says so, or (before the server gets round to cancelling it, on the thread pool) the body's
        // pipe stopped taking bytes, or the pipeline failed after the response started, which ends the connection.
        var aborted = context.RequestAborted.IsCancellationRequested || readerGone || (threw && response.HasStarted);
        var success = !aborted && status < StatusCodes.Status400BadRequest;

        // The common case in Production: a successful request with the access line off costs one level check.
        if (success && !logger.IsEnabled(LogLevel.Information))
        {
            return;
        }

        var request = context.Request;
        var format = FormatOf(response.ContentType);
        var encoding = response.Headers.ContentEncoding.Count == 0 ? "identity" : response.Headers.ContentEncoding.ToString();
        var query = request.QueryString.Value ?? string.Empty;
        var elapsedMilliseconds = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        if (aborted)
        {
            LogAborted(logger, request.Method, request.Path.Value, query, status, format, encoding, bytes, elapsedMilliseconds);
        }
        else if (success)
        {
            LogCompleted(logger, request.Method, request.Path.Value, query, status, format, encoding, bytes, elapsedMilliseconds);
        }
        else if (status < StatusCodes.Status500InternalServerError)
        {
            LogRejected(logger, request.Method, request.Path.Value, query, status, format, encoding, bytes, elapsedMilliseconds);
        }
        else
        {
            LogFailed(logger, request.Method, request.Path.Value, query, status, format, encoding, bytes, elapsedMilliseconds);
        }
    }

    // The format key (json, msgpack, protobuf, binary) for a wire format, whichever alias was sent; otherwise the
    // media type itself (application/problem+json, text/html), or "-" for a response without a body type.
    internal static string FormatOf(string? contentType)
    {
        if (string.IsNullOrEmpty(contentType))
        {
            return "-";
        }

        var parameters = contentType.IndexOf(';', StringComparison.Ordinal);
        var mediaType = (parameters < 0 ? contentType.AsSpan() : contentType.AsSpan(0, parameters)).Trim();
        foreach (var format in WireFormat.All)
        {
            if (format.IsNamedBy(mediaType))
            {
                return format.Key;
            }
        }

        return mediaType.ToString();
    }

    [LoggerMessage(EventId = 1, EventName = "RequestCompleted", Level = LogLevel.Information,
        Message = "{Method} {Path}{Query} {StatusCode} {Format} {ContentEncoding} {Bytes} bytes in {ElapsedMilliseconds:0.0} ms")]
    private static partial void LogCompleted(ILogger logger, string method, string? path, string query, int statusCode, string format, string contentEncoding, long bytes, double elapsedMilliseconds);

    [LoggerMessage(EventId = 2, EventName = "RequestAborted", Level = LogLevel.Warning,
        Message = "{Method} {Path}{Query} {StatusCode} {Format} {ContentEncoding} {Bytes} bytes in {ElapsedMilliseconds:0.0} ms, then the connection was aborted")]
    private static partial void LogAborted(ILogger logger, string method, string? path, string query, int statusCode, string format, string contentEncoding, long bytes, double elapsedMilliseconds);

    [LoggerMessage(EventId = 3, EventName = "RequestRejected", Level = LogLevel.Warning,
        Message = "{Method} {Path}{Query} {StatusCode} {Format} {ContentEncoding} {Bytes} bytes in {ElapsedMilliseconds:0.0} ms")]
    private static partial void LogRejected(ILogger logger, string method, string? path, string query, int statusCode, string format, string contentEncoding, long bytes, double elapsedMilliseconds);

    [LoggerMessage(EventId = 4, EventName = "RequestFailed", Level = LogLevel.Warning,
        Message = "{Method} {Path}{Query} {StatusCode} {Format} {ContentEncoding} {Bytes} bytes in {ElapsedMilliseconds:0.0} ms")]
    private static partial void LogFailed(ILogger logger, string method, string? path, string query, int statusCode, string format, string contentEncoding, long bytes, double elapsedMilliseconds);
}
