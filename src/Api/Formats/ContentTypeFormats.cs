using Microsoft.Net.Http.Headers;
using WebSerialization.Models;

namespace WebSerialization.Api.Formats;

/// <summary>
/// Which format a request body is in, from its Content-Type: the names and aliases of <see cref="WireFormat.All"/>
/// and nothing else (so <c>application/problem+json</c> is not an upload type), parameters ignored.
/// </summary>
public static class ContentTypeFormats
{
    /// <summary>The format <paramref name="contentType"/> names, or null when it names none (415).</summary>
    public static WireFormat? Resolve(string? contentType)
    {
        if (contentType is null || !MediaTypeHeaderValue.TryParse(contentType, out var parsed) || parsed.MatchesAllTypes || parsed.MatchesAllSubTypes)
        {
            return null;
        }

        return WireFormat.All.FirstOrDefault(format => format.IsNamedBy(parsed.MediaType.Value));
    }
}
