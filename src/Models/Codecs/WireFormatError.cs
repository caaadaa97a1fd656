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
