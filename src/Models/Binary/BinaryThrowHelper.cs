using System.Diagnostics.CodeAnalysis;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// Every exception the binary codec throws, out of line so that the hot paths that may throw stay small enough to
/// inline. Messages name the spec rule that was broken.
/// </summary>
internal static class BinaryThrowHelper
{
    [DoesNotReturn]
    public static void ThrowTruncated(long offset, string what) =>
        throw new WireFormatException(WireFormatError.Truncated, $"The payload ends inside {what}.", offset);

    [DoesNotReturn]
    public static void ThrowMalformed(long offset, string message) =>
        throw new WireFormatException(WireFormatError.Malformed, message, offset);

    [DoesNotReturn]
    public static void ThrowInexactInteger(long offset, long integer) =>
        ThrowMalformed(offset, $"The integer value {integer} has no exact binary64 form.");

    [DoesNotReturn]
    public static void ThrowPrefixTooLong(long offset, uint prefixBytes, int previousBytes) =>
        ThrowMalformed(offset, $"A prefix length of {prefixBytes} exceeds the previous value's {previousBytes} bytes.");

    [DoesNotReturn]
    public static void ThrowNumberTooLong(long offset, ulong number) =>
        ThrowMalformed(offset, $"The number {number} has more than {BinaryWire.MaxNumberDigits} digits.");

    [DoesNotReturn]
    public static void ThrowLimitExceeded(long offset, string limit, long declared, long allowed) =>
        throw new WireFormatException(
            WireFormatError.LimitExceeded,
            $"The payload declares {declared:N0} where {nameof(DecodeLimits)}.{limit} allows {allowed:N0}.",
            offset,
            limit);

    [DoesNotReturn]
    public static void ThrowNullMember(int index) =>
        throw new ArgumentException($"Member {index} of the batch is null; the binary format has no null members.", "members");

    [DoesNotReturn]
    public static void ThrowMemberCountMismatch(int declared, long written) =>
        throw new InvalidOperationException($"The header declared {declared} members but {written} were written.");

    [DoesNotReturn]
    public static void ThrowHeaderNotWritten() =>
        throw new InvalidOperationException("WriteHeader must come first.");
}
