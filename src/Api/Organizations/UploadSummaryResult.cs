using Microsoft.AspNetCore.Http.Json;
using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;
using WebSerialization.Api.Formats;
using MessagePack;
using WebSerialization.Models;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// Writes an <see cref="UploadSummary"/> with the format's library: System.Text.Json (camelCase object),
/// MessagePack-CSharp (a 6-element array in property order) or protobuf-net (fields 1..6 in property order). The
/// custom binary format describes organizations only, so a client that accepts nothing else gets 406 for a summary.
/// </summary>
public sealed class UploadSummaryResult(UploadSummary summary, NegotiatedFormat format) : IResult
{
    /// <summary>The formats a summary can be written in, JSON first.</summary>
    public static IReadOnlyList<WireFormatDescriptor> Formats { get; } =
        [.. WireFormatDescriptor.All.Where(d => d.Format != WireFormat.Binary)];

    /// <inheritdoc />
    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.ContentType = format.ContentType;
        response.Headers.Append(HeaderNames.Vary, HeaderNames.Accept);
        switch (format.Format)
        {
            case WireFormat.Json:
                var options = httpContext.RequestServices.GetRequiredService<IOptions<JsonOptions>>().Value.SerializerOptions;
                await response.WriteAsJsonAsync(summary, options, format.ContentType, httpContext.RequestAborted);
                return;
            case WireFormat.MessagePack:
                MessagePackSerializer.Serialize(response.BodyWriter, summary, MessagePackSerializerOptions.Standard, httpContext.RequestAborted);
                break;
            case WireFormat.Protobuf:
                ProtoBuf.Serializer.Serialize(response.BodyWriter, summary);
                break;
            default:
                throw new InvalidOperationException($"A summary cannot be written as {format.Format}.");
        }

        await response.BodyWriter.FlushAsync(httpContext.RequestAborted);
    }
}
