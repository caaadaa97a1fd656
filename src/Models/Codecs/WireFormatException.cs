namespace WebSerialization.Models.Codecs;

/// <summary>What went wrong with an encoded payload.</summary>
public enum WireFormatError
{
    /// <summary>The payload ended before it was complete.</summary>
    Truncated,

    /// <summary>The bytes do not follow the format (bad tag, type, varint, UTF-8, trailing bytes...).</summary>
    Malformed,

    /// <summary>The payload is well-formed but exceeds a <see cref="DecodeLimits"/> limit.</summary>
    LimitExceeded,
}

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
