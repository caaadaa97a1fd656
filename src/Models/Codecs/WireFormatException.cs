namespace WebSerialization.Models.Codecs;

/// <summary>An encoded payload that cannot be decoded. The API answers it with 400 (or 413 for a limit).</summary>
public sealed class WireFormatException : FormatException
{
    /// <summary>Creates the exception.</summary>
    public WireFormatException(WireFormatError error, string message, long? offset = null, string? limit = null, Exception? innerException = null)
        : base(message, innerException)
    {
        Error = error;
        Offset = offset;
        Limit = limit;
    }

    /// <summary>What kind of problem this is.</summary>
    public WireFormatError Error { get; }

    /// <summary>The byte offset in the payload where the problem was found, when known.</summary>
    public long? Offset { get; }

    /// <summary>The name of the <see cref="DecodeLimits"/> property that was exceeded, for <see cref="WireFormatError.LimitExceeded"/>.</summary>
    public string? Limit { get; }
}
