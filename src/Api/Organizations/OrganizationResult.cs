using Microsoft.Net.Http.Headers;
using WebSerialization.Api.Formats;
using WebSerialization.Models;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// Streams an organization in the negotiated format straight into the response body, flushing every chunk.
/// The body is chunked (no Content-Length): its size is known only once it has been written.
/// </summary>
public sealed partial class OrganizationResult(Organization organization, int memberCount, NegotiatedFormat format, int chunkSize) : IResult
{
    /// <inheritdoc />
    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = format.ContentType;
        response.Headers.Append(HeaderNames.Vary, HeaderNames.Accept);

        var aborted = httpContext.RequestAborted;
        try
        {
            // Started before the first byte: until then Kestrel keeps the body in buffers of its own and copies all of
            // it into the connection's pipe when the headers go out, which for a body under one chunk is all of it.
            await response.StartAsync(aborted);
            var encoder = format.Format.Codec.CreateEncoder();
            await OrganizationStreamWriter.WriteAsync(response.BodyWriter, encoder, organization, memberCount, aborted, chunkSize);
        }
        catch (OperationCanceledException)
        {
            // The client went away mid-body (the token fired, or the pipe said its reader completed):
            // nothing is wrong with the server, so this is not an error.
            var logger = httpContext.RequestServices.GetRequiredService<ILogger<OrganizationResult>>();
            LogClientGone(logger, format.Format, memberCount);
        }
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "The client disconnected while {Format} with {MemberCount} members was streaming; encoding stopped")]
    private static partial void LogClientGone(ILogger logger, WireFormat format, int memberCount);
}
