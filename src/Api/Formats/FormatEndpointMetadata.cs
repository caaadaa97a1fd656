using WebSerialization.Models;

namespace WebSerialization.Api.Formats;

/// <summary>Endpoint metadata derived from the table of formats, so OpenAPI lists what negotiation can answer.</summary>
public static class FormatEndpointMetadata
{
    /// <summary>Declares a 200 response of <paramref name="responseType"/> in the media type of each of <paramref name="formats"/>.</summary>
    public static RouteHandlerBuilder ProducesFormats(this RouteHandlerBuilder builder, Type responseType, IReadOnlyList<WireFormat> formats)
    {
        ArgumentOutOfRangeException.ThrowIfZero(formats.Count);
        return builder.Produces(StatusCodes.Status200OK, responseType, formats[0].MediaType, [.. formats.Skip(1).Select(format => format.MediaType)]);
    }
}
