using WebSerialization.Models;

namespace WebSerialization.Api.Formats;

/// <summary>The outcome of content negotiation: the format to write and the Content-Type to send with it.</summary>
public sealed record NegotiatedFormat(WireFormat Format, string ContentType);
