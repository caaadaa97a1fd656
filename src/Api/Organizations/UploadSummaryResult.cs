using Microsoft.Net.Http.Headers;
using WebSerialization.Api.Formats;
using WebSerialization.Models;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// Writes an <see cref="UploadSummary"/> in the negotiated format, with the format's library (its codec's
/// <see cref="IUploadSummaryWriter"/>). A format whose codec writes no summary (the binary format describes
/// organizations only) is not offered, so a client that accepts nothing else gets 406 for a summary.
/// </summary>
public sealed class UploadSummaryResult(UploadSummary summary, NegotiatedFormat format) : IResult
{
    /// <summary>The formats a summary can be written in, in the table's order.</summary>
    public static IReadOnlyList<WireFormat> Formats { get; } = [.. WireFormat.All.Where(f => f.Codec is IUploadSummaryWriter)];

    /// <inheritdoc />
    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var writer = format.Format.Codec as IUploadSummaryWriter
            ?? throw new InvalidOperationException($"A summary cannot be written as {format.Format.Name}.");
        var response = httpContext.Response;
        response.ContentType = format.ContentType;
        response.Headers.Append(HeaderNames.Vary, HeaderNames.Accept);
        writer.WriteSummary(response.BodyWriter, summary);
        await response.BodyWriter.FlushAsync(httpContext.RequestAborted);
    }
}
