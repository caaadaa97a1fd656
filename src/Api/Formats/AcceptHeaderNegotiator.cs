using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;
using WebSerialization.Models;

namespace WebSerialization.Api.Formats;

/// <summary>
/// Chooses a response format from <c>?format=</c> or the Accept header, the way RFC 9110 §12.5.1 describes and MVC
/// does not (docs/content-negotiation.md shows where they differ): every Accept entry counts, including alongside <c>*/*</c>; <c>q=0</c> means "not this";
/// a media type gets the q of the most specific range that matches it; the highest q wins. Only the media types of
/// <see cref="WireFormat.All"/> (names and aliases) select a format: <c>application/problem+json</c> says
/// how a client reads errors, not that it wants the data as JSON. Where the RFC leaves a choice open, the rules are
/// those of docs/content-negotiation.md: parameters other than q are ignored; the same range listed twice counts
/// with its highest q; wildcards stand for the formats' primary types, aliases count only where the client names
/// them; ties go to a type the client named over one a wildcard matched, then to the client's order, then to the
/// server's (JSON first). A type the client named is echoed as the Content-Type, so an alias comes back as asked.
/// </summary>
public static class AcceptHeaderNegotiator
{
    private const int ExactMatch = 3;
    private const int SubtypeWildcardMatch = 2;
    private const int AnyMatch = 1;

    /// <summary>Every concrete media type that names a format, primary names first.</summary>
    public static IReadOnlyList<string> SupportedMediaTypes { get; } = MediaTypesOf(WireFormat.All);

    /// <summary>The media types that name one of <paramref name="formats"/>, primary names first, then aliases.</summary>
    public static IReadOnlyList<string> MediaTypesOf(IReadOnlyList<WireFormat> formats) =>
    [
        .. formats.Select(format => format.MediaType),
        .. formats.SelectMany(format => format.Aliases),
    ];

    /// <summary>Negotiates a format, or returns null when nothing acceptable is on offer (406).</summary>
    /// <param name="formatKey">The <c>?format=</c> value, which overrides Accept when present.</param>
    /// <param name="accept">The Accept header values.</param>
    /// <param name="offered">The formats on offer, in the server's order of preference; all four when null.</param>
    public static NegotiatedFormat? Negotiate(string? formatKey, StringValues accept, IReadOnlyList<WireFormat>? offered = null)
    {
        offered ??= WireFormat.All;
        if (formatKey is not null)
        {
            var byKey = offered.FirstOrDefault(d => d.Key.Equals(formatKey, StringComparison.OrdinalIgnoreCase));
            return byKey is null ? null : new NegotiatedFormat(byKey, byKey.MediaType);
        }

        if (StringValues.IsNullOrEmpty(accept) || !MediaTypeHeaderValue.TryParseList(accept, out var ranges) || ranges.Count == 0)
        {
            return offered.Count == 0 ? null : new NegotiatedFormat(offered[0], offered[0].MediaType);
        }

        Candidate? best = null;
        foreach (var format in offered)
        {
            best = Better(best, Rate(format, format.MediaType, ranges, wildcardsMatch: true));
            foreach (var alias in format.Aliases)
            {
                best = Better(best, Rate(format, alias, ranges, wildcardsMatch: false));
            }
        }

        return best is { Quality: > 0 } chosen ? new NegotiatedFormat(chosen.Format, chosen.ContentType) : null;
    }

    // Rates one media type the server offers against every Accept range: the most specific matching range decides,
    // and among equally specific ones (the same range twice, parameters aside) the highest q. Wildcards match a
    // format's primary type only: an alias is there for clients that name it, so refusing application/json with q=0
    // next to */* does not bring JSON back in as text/json.
    private static Candidate? Rate(WireFormat format, string offered, IList<MediaTypeHeaderValue> ranges, bool wildcardsMatch)
    {
        var offeredType = new MediaTypeHeaderValue(offered);
        Candidate? rating = null;
        for (var order = 0; order < ranges.Count; order++)
        {
            var range = ranges[order];
            var specificity = Specificity(range, offeredType);
            if (specificity == 0 || (specificity != ExactMatch && !wildcardsMatch))
            {
                continue;
            }

            var quality = range.Quality ?? 1.0;
            if (rating is null || specificity > rating.Specificity || (specificity == rating.Specificity && quality > rating.Quality))
            {
                // The offered type itself goes back, so an alias comes back as asked (in the table's spelling, without parameters).
                rating = new Candidate(format, offered, quality, specificity, order);
            }
        }

        return rating;
    }

    // Type and subtype only: parameters neither narrow nor widen a match (none of the formats defines one).
    private static int Specificity(MediaTypeHeaderValue range, MediaTypeHeaderValue offered)
    {
        if (range.MatchesAllTypes)
        {
            return AnyMatch;
        }

        if (!range.Type.Equals(offered.Type, StringComparison.OrdinalIgnoreCase))
        {
            return 0;
        }

        if (range.MatchesAllSubTypes)
        {
            return SubtypeWildcardMatch;
        }

        return range.SubType.Equals(offered.SubType, StringComparison.OrdinalIgnoreCase) ? ExactMatch : 0;
    }

    private static Candidate? Better(Candidate? current, Candidate? challenger)
    {
        if (challenger is null || challenger.Quality <= 0)
        {
            return current;
        }

        if (current is null)
        {
            return challenger;
        }

        if (challenger.Quality != current.Quality)
        {
            return challenger.Quality > current.Quality ? challenger : current;
        }

        var challengerNamed = challenger.Specificity == ExactMatch;
        var currentNamed = current.Specificity == ExactMatch;
        if (challengerNamed != currentNamed)
        {
            return challengerNamed ? challenger : current;
        }

        if (challengerNamed && challenger.ClientOrder != current.ClientOrder)
        {
            return challenger.ClientOrder < current.ClientOrder ? challenger : current;
        }

        // Same standing: the server's order (JSON, MessagePack, protobuf, binary; primary names before aliases) wins.
        return current;
    }

    private sealed record Candidate(WireFormat Format, string ContentType, double Quality, int Specificity, int ClientOrder);
}
