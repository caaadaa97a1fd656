using System.Diagnostics;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Formats;
using WebSerialization.Api.Limits;
using WebSerialization.Models;
using WebSerialization.Models.Streaming;

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
    /// <summary>Maps the upload endpoints onto the <c>/api</c> group.</summary>
    public static RouteGroupBuilder MapOrganizationUploads(this RouteGroupBuilder api)
    {
        api.MapPost("/organization", Summarize)
            .WithName("PostOrganization")
            .WithSummary("Decodes an organization sent in any format (by Content-Type) and answers what it found.")
            .Produces<UploadSummary>(StatusCodes.Status200OK, WireMediaTypes.Json, WireMediaTypes.MessagePack, WireMediaTypes.Protobuf)
            .ProducesProblem(StatusCodes.Status400BadRequest)
            .ProducesProblem(StatusCodes.Status406NotAcceptable)
            .ProducesProblem(StatusCodes.Status413PayloadTooLarge)
            .ProducesProblem(StatusCodes.Status415UnsupportedMediaType)
            .ProducesProblem(StatusCodes.Status429TooManyRequests)
            .RequireRateLimiting(HeavyRequestLimiter.Policy);

        api.MapPost("/organization/convert", Convert)
            .WithName("ConvertOrganization")
            .WithSummary("Decodes an organization sent in any format and streams it back in the format chosen by Accept or `?format=`.")
            .Produces(StatusCodes.Status200OK, typeof(Organization), WireMediaTypes.Json, WireMediaTypes.MessagePack, WireMediaTypes.Protobuf, WireMediaTypes.Binary)
            .ProducesProblem(StatusCodes.Status400BadRequest)
            .ProducesProblem(StatusCodes.Status406NotAcceptable)
            .ProducesProblem(StatusCodes.Status413PayloadTooLarge)
            .ProducesProblem(StatusCodes.Status415UnsupportedMediaType)
            .ProducesProblem(StatusCodes.Status429TooManyRequests)
            .RequireRateLimiting(HeavyRequestLimiter.Policy);

        return api;
    }

    private static Task<IResult> Summarize(HttpContext httpContext, IOptions<UploadLimitsOptions> limits, ILoggerFactory loggers, string? format) =>
        NegotiateThenReadAsync(
            httpContext,
            format,
            UploadSummaryResult.Formats,
            "A summary is written as JSON, MessagePack or protobuf; the Accept header allows none of them.",
            limits.Value,
            loggers,
            (upload, answer) =>
            {
                var organization = upload.Organization!;
                var summary = new UploadSummary(
                    WireFormatDescriptor.Of(upload.Format).Key,
                    organization.Members?.Count ?? 0,
                    organization.Tags?.Length ?? 0,
                    upload.BytesRead,
                    upload.Elapsed.TotalMilliseconds,
                    OrganizationChecksum.Compute(organization));
                return new UploadSummaryResult(summary, answer);
            });

    private static Task<IResult> Convert(
        HttpContext httpContext,
        IOptions<UploadLimitsOptions> limits,
        IOptions<OrganizationOptions> options,
        ILoggerFactory loggers,
        string? format) =>
        NegotiateThenReadAsync(
            httpContext,
            format,
            WireFormatDescriptor.All,
            "None of the media types in the Accept header is available.",
            limits.Value,
            loggers,
            (upload, answer) => new OrganizationResult(upload.Organization!, upload.Organization!.Members?.Count ?? 0, answer, options.Value.ChunkSize));

    // The answer's format is settled before the body is read, so a request that could never be answered costs nothing.
    private static async Task<IResult> NegotiateThenReadAsync(
        HttpContext httpContext,
        string? formatKey,
        IReadOnlyList<WireFormatDescriptor> offered,
        string notAcceptableDetail,
        UploadLimitsOptions limits,
        ILoggerFactory loggers,
        Func<Upload, NegotiatedFormat, IResult> answer)
    {
        var negotiated = AcceptHeaderNegotiator.Negotiate(formatKey, httpContext.Request.Headers.Accept, offered);
        if (negotiated is null)
        {
            return ProblemResponses.NotAcceptable(notAcceptableDetail);
        }

        var upload = await ReadAsync(httpContext, limits, loggers.CreateLogger(typeof(OrganizationUploadApi)));
        return upload.Problem ?? answer(upload, negotiated);
    }

    private static async Task<Upload> ReadAsync(HttpContext httpContext, UploadLimitsOptions limits, ILogger logger)
    {
        var request = httpContext.Request;
        var format = ContentTypeFormats.Resolve(request.ContentType);
        if (format is null)
        {
            return Upload.Failed(ProblemResponses.Problem(
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

        var decoder = WireFormatCodecs.For(format.Value).CreateDecoder(limits.ToDecodeLimits());
        var stopwatch = Stopwatch.StartNew();
        try
        {
            var (organization, bytesRead) = await OrganizationStreamReader.ReadAsync(request.BodyReader, decoder, httpContext.RequestAborted);
            return new Upload(format.Value, organization, bytesRead, stopwatch.Elapsed, null);
        }
        catch (WireFormatException exception) when (exception.Error == WireFormatError.LimitExceeded)
        {
            return Upload.Failed(ProblemResponses.Problem(
                StatusCodes.Status413PayloadTooLarge,
                "Limit exceeded",
                exception.Message,
                new Dictionary<string, object?> { ["limit"] = exception.Limit, ["offset"] = exception.Offset }));
        }
        catch (WireFormatException exception)
        {
            return Upload.Failed(ProblemResponses.Problem(
                StatusCodes.Status400BadRequest,
                exception.Error == WireFormatError.Truncated ? "Truncated body" : "Malformed body",
                $"The body is not a valid {WireFormatDescriptor.Of(format.Value).Key} organization: {exception.Message}",
                new Dictionary<string, object?> { ["offset"] = exception.Offset }));
        }
        catch (BadHttpRequestException exception)
        {
            // Kestrel's own verdicts (413 for a body over the limit, 400 for bad framing) keep their status.
            return Upload.Failed(ProblemResponses.Problem(exception.StatusCode, exception.StatusCode == StatusCodes.Status413PayloadTooLarge ? "Payload Too Large" : "Bad Request", exception.Message));
        }
        catch (Exception exception) when (exception is IOException || (exception is OperationCanceledException && httpContext.RequestAborted.IsCancellationRequested))
        {
            // A body read fails with an IOException (ConnectionResetException) when the client has gone, sometimes
            // before RequestAborted fires: either way there is no one to answer, and nothing is wrong with the server.
            // Aborting tells Kestrel not to drain the body: the pipe that threw is left mid-read (dotnet/runtime#53914),
            // and draining it would log an error for a connection that is gone anyway.
            httpContext.Abort();
            LogUploadAbandoned(logger, format.Value);
            return Upload.Failed(Results.Empty);
        }
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "The client disconnected while uploading {Format}; the partial body was dropped")]
    private static partial void LogUploadAbandoned(ILogger logger, WireFormat format);

    private sealed record Upload(WireFormat Format, Organization? Organization, long BytesRead, TimeSpan Elapsed, IResult? Problem)
    {
        public static Upload Failed(IResult problem) => new(default, null, 0, TimeSpan.Zero, problem);
    }
}
