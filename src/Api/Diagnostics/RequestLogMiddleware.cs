using System.Diagnostics;
using Microsoft.AspNetCore.Http.Features;
using WebSerialization.Models;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Logs one line per request: method, path and query, status, format, Content-Encoding, body bytes and duration.
/// ASP.NET Core's HttpLogging has no body-size field short of buffering the body, so the bytes are counted here
/// by a thin stand-in for the response body feature. Runs outside response compression, so the bytes counted are
/// the bytes sent. Bodies are never logged. The same count feeds <see cref="ResponseBodyMetrics"/> when metrics are on.
/// When the category is below Information and metrics are off, the request passes untouched.
/// </summary>
public sealed partial class RequestLogMiddleware(RequestDelegate next, ILogger<RequestLogMiddleware> logger, IServiceProvider services)
{
    private readonly ResponseBodyMetrics? _metrics = services.GetService<ResponseBodyMetrics>();

    /// <summary>Serves the request, then logs it and counts its body bytes.</summary>
    public async Task InvokeAsync(HttpContext context)
    {
        var logging = logger.IsEnabled(LogLevel.Information);
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
            _metrics?.Record(FormatOf(context.Response.ContentType), countingBody.BytesWritten);
            if (logging)
            {
                Log(context, threw, countingBody.ReaderGone, countingBody.BytesWritten, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            }
        }
    }

    private void Log(HttpContext context, bool threw, bool readerGone, long bytes, double elapsedMilliseconds)
    {
        var request = context.Request;
        var response = context.Response;

        // An exception that escapes before the response starts becomes the server's own 500.
        var status = threw && !response.HasStarted ? StatusCodes.Status500InternalServerError : response.StatusCode;
        var format = FormatOf(response.ContentType);
        var encoding = response.Headers.ContentEncoding.Count == 0 ? "identity" : response.Headers.ContentEncoding.ToString();
        var query = request.QueryString.Value ?? string.Empty;
        // Aborted: the token says so, or (before the server gets round to cancelling it, on the thread pool) the body's
        // pipe stopped taking bytes, or the pipeline failed after the response started, which ends the connection.
        if (context.RequestAborted.IsCancellationRequested || readerGone || (threw && response.HasStarted))
        {
            LogAborted(logger, request.Method, request.Path.Value, query, status, format, encoding, bytes, elapsedMilliseconds);
        }
        else
        {
            LogCompleted(logger, request.Method, request.Path.Value, query, status, format, encoding, bytes, elapsedMilliseconds);
        }
    }

    // The format key (json, msgpack, protobuf, binary) for a wire format, whichever alias was sent; otherwise the
    // media type itself (application/problem+json, text/html), or "-" for a response without a body type.
    private static string FormatOf(string? contentType)
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

    [LoggerMessage(EventId = 2, EventName = "RequestAborted", Level = LogLevel.Information,
        Message = "{Method} {Path}{Query} {StatusCode} {Format} {ContentEncoding} {Bytes} bytes in {ElapsedMilliseconds:0.0} ms, then the connection was aborted")]
    private static partial void LogAborted(ILogger logger, string method, string? path, string query, int statusCode, string format, string contentEncoding, long bytes, double elapsedMilliseconds);
}
