using Microsoft.Net.Http.Headers;
using WebSerialization.Models;

namespace WebSerialization.Api.Formats;

/// <summary>Which format a request body is in, from its Content-Type: the same names and aliases the GET answers with.</summary>
public static class ContentTypeFormats
{
    /// <summary>The format <paramref name="contentType"/> names, or null when it names none (415).</summary>
    public static WireFormat? Resolve(string? contentType)
    {
        if (contentType is null || !MediaTypeHeaderValue.TryParse(contentType, out var parsed) || parsed.MatchesAllTypes || parsed.MatchesAllSubTypes)
        {
            return null;
        }

        foreach (var descriptor in WireFormatDescriptor.All)
        {
            if (Names(descriptor, parsed.MediaType.Value!))
            {
                return descriptor.Format;
            }
        }

        // Any structured-syntax JSON type (application/vnd.api+json) is JSON.
        return parsed.Type.Equals("application", StringComparison.OrdinalIgnoreCase) && parsed.Suffix.Equals("json", StringComparison.OrdinalIgnoreCase)
            ? WireFormat.Json
            : null;
    }

    private static bool Names(WireFormatDescriptor descriptor, string mediaType) =>
        descriptor.MediaType.Equals(mediaType, StringComparison.OrdinalIgnoreCase)
        || descriptor.Aliases.Any(alias => alias.Equals(mediaType, StringComparison.OrdinalIgnoreCase));
}
