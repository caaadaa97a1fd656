using System.Diagnostics.CodeAnalysis;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Binary;

/// <summary>
/// The binary codec's own exceptions beside <see cref="WireFormatThrow"/>'s, out of line so that the hot paths that may
/// throw stay small enough to inline. Messages name the spec rule that was broken.
/// </summary>
internal static class BinaryThrowHelper
{
    [DoesNotReturn]
    public static void ThrowInexactInteger(long offset, long integer) =>
        WireFormatThrow.Malformed(offset, $"The integer value {integer} has no exact binary64 form.");

    [DoesNotReturn]
    public static void ThrowPrefixTooLong(long offset, uint prefixBytes, int previousBytes) =>
        WireFormatThrow.Malformed(offset, $"A prefix length of {prefixBytes} exceeds the previous value's {previousBytes} bytes.");

    [DoesNotReturn]
    public static void ThrowNumberTooLong(long offset, ulong number) =>
        WireFormatThrow.Malformed(offset, $"The number {number} has more than {BinaryWire.MaxNumberDigits} digits.");

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
