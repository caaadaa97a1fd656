using System.Diagnostics;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Limits;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// What the baseline's upload shares with the streamed one: the server's body-size limit (<c>Limits:MaxRequestBodyBytes</c>,
/// set before MVC's input formatter reads the body), Kestrel's own verdicts kept (413 for a body over the limit, 400
/// for bad framing) as problem details rather than MVC's 500, and a client that left mid-body treated as gone, not as
/// an error. It also notes when binding started, for the summary's decode time.
/// </summary>
public sealed partial class BaselineUploadFilter(IOptions<UploadLimitsOptions> limits, ILogger<BaselineUploadFilter> logger) : IResourceFilter, IExceptionFilter
{
    private static readonly object StartedKey = new();

    /// <summary>The time since <see cref="OnResourceExecuting"/>: reading and deserializing the whole body.</summary>
    public static TimeSpan Elapsed(HttpContext httpContext) =>
        httpContext.Items[StartedKey] is long started ? Stopwatch.GetElapsedTime(started) : TimeSpan.Zero;

    /// <inheritdoc />
    public void OnResourceExecuting(ResourceExecutingContext context)
    {
        var bodySize = context.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (bodySize is { IsReadOnly: false })
        {
            bodySize.MaxRequestBodySize = limits.Value.MaxRequestBodyBytes;
        }

        context.HttpContext.Items[StartedKey] = Stopwatch.GetTimestamp();
    }

    /// <inheritdoc />
    public void OnResourceExecuted(ResourceExecutedContext context)
    {
    }

    /// <inheritdoc />
    public void OnException(ExceptionContext context)
    {
        var httpContext = context.HttpContext;
        switch (context.Exception)
        {
            case BadHttpRequestException exception:
                context.Result = new ProblemActionResult(ProblemResponses.Problem(
                    exception.StatusCode,
                    exception.StatusCode == StatusCodes.Status413PayloadTooLarge ? "Payload Too Large" : "Bad Request",
                    exception.Message));
                context.ExceptionHandled = true;
                break;
            case IOException or OperationCanceledException when httpContext.RequestAborted.IsCancellationRequested || context.Exception is IOException:
                // The client went away mid-body: no one to answer. Aborting keeps Kestrel from draining a pipe that threw.
                httpContext.Abort();
                LogUploadAbandoned(logger);
                context.Result = new EmptyResult();
                context.ExceptionHandled = true;
                break;
        }
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "The client disconnected while uploading to the MVC baseline; the partial body was dropped")]
    private static partial void LogUploadAbandoned(ILogger logger);
}
