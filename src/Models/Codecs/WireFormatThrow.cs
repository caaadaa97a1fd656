using System.Diagnostics.CodeAnalysis;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// The one way a decoder fails: a <see cref="WireFormatException"/> with its kind and the payload offset where the
/// problem was found. Out of line, so that the hot paths that may throw stay small enough to inline.
/// </summary>
internal static class WireFormatThrow
{
    [DoesNotReturn]
    public static void Truncated(long offset, string message) =>
        throw new WireFormatException(WireFormatError.Truncated, message, offset);

    [DoesNotReturn]
    public static void Malformed(long offset, string message, Exception? innerException = null) =>
        throw new WireFormatException(WireFormatError.Malformed, message, offset, innerException: innerException);

    /// <summary>A <see cref="DecodeLimits"/> limit broken; <paramref name="limit"/> names its property.</summary>
    [DoesNotReturn]
    public static void LimitExceeded(long offset, string limit, string message) =>
        throw new WireFormatException(WireFormatError.LimitExceeded, message, offset, limit);

    /// <summary>A declared count or length above its <see cref="DecodeLimits"/> limit.</summary>
    [DoesNotReturn]
    public static void LimitExceeded(long offset, string limit, long declared, long allowed) =>
        LimitExceeded(offset, limit, $"The payload declares {declared:N0} where {nameof(DecodeLimits)}.{limit} allows {allowed:N0}.");

    /// <summary>Text that is not well-formed UTF-8.</summary>
    [DoesNotReturn]
    public static void InvalidUtf8(long offset, string what) =>
        Malformed(offset, $"{what} is not well-formed UTF-8.");
}
