using System.Diagnostics;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Formats;
using WebSerialization.Api.Limits;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// Uploads: <c>POST /api/organization</c> decodes a body in any format and answers a summary;
/// <c>POST /api/organization/convert</c> answers the decoded organization re-encoded in the negotiated format.
/// Bodies are decoded from the request's PipeReader as they arrive; every failure is a 4xx problem.
/// There is no <c>Accepts</c> metadata on purpose: routing would answer an unknown Content-Type with a bare 415
/// before the endpoint could say which types it reads (the OpenAPI request body comes from
/// <see cref="OpenApi.OrganizationOperationFilter"/>).
/// </summary>
public static partial class OrganizationUploadApi
{
    /// <summary>Maps the upload endpoints onto the <c>/api</c> group of the organization's endpoints, which carries what they share with the download.</summary>
    public static RouteGroupBuilder MapOrganizationUploads(this RouteGroupBuilder organization)
    {
        // Both read a body: it can be too large or of a type no format reads.
        var uploads = organization.MapGroup(string.Empty)
            .ProducesProblem(StatusCodes.Status413PayloadTooLarge)
            .ProducesProblem(StatusCodes.Status415UnsupportedMediaType);

        uploads.MapPost("/organization", Summarize)
            .WithName("PostOrganization")
            .WithSummary("Decodes an organization sent in any format (by Content-Type) and answers what it found.")
            .ProducesFormats(typeof(UploadSummary), UploadSummaryResult.Formats);

        uploads.MapPost("/organization/convert", Convert)
            .WithName("ConvertOrganization")
            .WithSummary("Decodes an organization sent in any format and streams it back in the format chosen by Accept or `?format=`.")
            .ProducesFormats(typeof(Organization), WireFormat.All);

        return organization;
    }

    private static async Task<IResult> Summarize(HttpContext httpContext, IOptions<UploadLimitsOptions> limits, ILoggerFactory loggers, string? format)
    {
        var negotiated = AcceptHeaderNegotiator.Negotiate(format, httpContext.Request.Headers.Accept, UploadSummaryResult.Formats);
        if (negotiated is null)
        {
            return ProblemResponses.NotAcceptable($"A summary is written as {string.Join(" or ", UploadSummaryResult.Formats.Select(f => f.Name))}; the Accept header allows none of them.",
                UploadSummaryResult.Formats);
        }

        // Each member is folded into the checksum and dropped: a summary takes the memory of one member.
        var summarizer = new OrganizationSummarizer();
        long bytesRead = 0;
        var stopwatch = Stopwatch.StartNew();
        var (bodyFormat, problem) = await DecodeAsync(httpContext, limits.Value, loggers, async (codec, decodeLimits, body, cancellationToken) =>
            bytesRead = await OrganizationStreamReader.ReadToEndAsync(body, codec.CreateDecoder(decodeLimits, summarizer), cancellationToken));
        if (problem is not null)
        {
            return problem;
        }

        return new UploadSummaryResult(summarizer.ToSummary(bodyFormat!, bytesRead, stopwatch.Elapsed), negotiated);
    }

    // Each member goes to the answer's encoder as soon as it is read, and the answer goes out once the whole upload has
    // been read (OrganizationStreamConverter), so an upload found bad anywhere gets its 4xx problem. A conversion that
    // fails after the answer has started has lost its client, and the connection is aborted already.
    private static async Task<IResult> Convert(
        HttpContext httpContext,
        IOptions<UploadLimitsOptions> limits,
        IOptions<OrganizationOptions> options,
        ILoggerFactory loggers,
        string? format)
    {
        var negotiated = AcceptHeaderNegotiator.Negotiate(format, httpContext.Request.Headers.Accept, WireFormat.All);
        if (negotiated is null)
        {
            return ProblemResponses.NotAcceptable("None of the media types in the Accept header is available.");
        }

        var response = httpContext.Response;
        var responseStarted = false;
        var (_, problem) = await DecodeAsync(httpContext, limits.Value, loggers, async (codec, decodeLimits, body, cancellationToken) =>
        {
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = negotiated.ContentType;
            response.Headers.Append(HeaderNames.Vary, HeaderNames.Accept);
            await OrganizationStreamConverter.ConvertAsync(
                body, codec, decodeLimits, negotiated.Format.Codec, response.BodyWriter, started => responseStarted = started, cancellationToken, options.Value.ChunkSize,
                OrganizationStreamConverter.ShouldPipeline(httpContext.Request.ContentLength));
        });
        if (problem is not null && !responseStarted)
        {
            response.Clear();
        }

        return problem ?? Results.Empty;
    }

    // Decodes the request body with `decode`; answers the body's format, and the problem to answer instead, if any.
    private static async Task<(WireFormat? Format, IResult? Problem)> DecodeAsync(
        HttpContext httpContext,
        UploadLimitsOptions limits,
        ILoggerFactory loggers,
        Func<IWireFormatCodec, DecodeLimits, PipeReader, CancellationToken, Task> decode)
    {
        var request = httpContext.Request;
        var format = ContentTypeFormats.Resolve(request.ContentType);
        if (format is null)
        {
            return (null, ProblemResponses.Problem(
                StatusCodes.Status415UnsupportedMediaType,
                "Unsupported Media Type",
                request.ContentType is null
                    ? "The request has no Content-Type; name the body's format with one of the media types listed here."
                    : $"'{request.ContentType}' is not a format this API reads; use one of the media types listed here.",
                new Dictionary<string, object?> { ["supportedMediaTypes"] = AcceptHeaderNegotiator.SupportedMediaTypes }));
        }

        var bodySize = httpContext.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (bodySize is { IsReadOnly: false })
        {
            bodySize.MaxRequestBodySize = limits.MaxRequestBodyBytes;
        }

        try
        {
            await decode(format.Codec, limits.ToDecodeLimits(), request.BodyReader, httpContext.RequestAborted);
            return (format, null);
        }
        catch (WireFormatException exception) when (exception.Error == WireFormatError.LimitExceeded)
        {
            return (format, ProblemResponses.Problem(
                StatusCodes.Status413PayloadTooLarge,
                "Limit exceeded",
                exception.Message,
                new Dictionary<string, object?> { ["limit"] = exception.Limit, ["offset"] = exception.Offset }));
        }
        catch (WireFormatException exception)
        {
            return (format, ProblemResponses.Problem(
                StatusCodes.Status400BadRequest,
                exception.Error == WireFormatError.Truncated ? "Truncated body" : "Malformed body",
                $"The body is not a valid {format.Key} organization: {exception.Message}",
                new Dictionary<string, object?> { ["offset"] = exception.Offset }));
        }
        catch (BadHttpRequestException exception)
        {
            // Kestrel's own verdicts (413 for a body over the limit, 400 for bad framing) keep their status.
            return (format, ProblemResponses.Problem(exception.StatusCode, exception.StatusCode == StatusCodes.Status413PayloadTooLarge ? "Payload Too Large" : "Bad Request", exception.Message));
        }
        catch (Exception exception) when (exception is IOException || (exception is OperationCanceledException))
        {
            // A body read fails with an IOException (ConnectionResetException) when the client has gone, sometimes
            // before RequestAborted fires, and a converted response's flush says its reader completed: either way there
            // is no one to answer, and nothing is wrong with the server. Aborting tells Kestrel not to drain the body:
            // the pipe that threw is left mid-read (dotnet/runtime#53914), and draining it would log an error for a
            // connection that is gone anyway.
            httpContext.Abort();
            LogUploadAbandoned(loggers.CreateLogger(typeof(OrganizationUploadApi)), format);
            return (format, Results.Empty);
        }
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "The client disconnected while uploading {Format}; the partial body was dropped")]
    private static partial void LogUploadAbandoned(ILogger logger, WireFormat format);
}
