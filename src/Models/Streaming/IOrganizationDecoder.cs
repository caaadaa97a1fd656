using System.Buffers;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Decodes one <see cref="Organization"/> from bytes that arrive in pieces (a request body read from a
/// <c>PipeReader</c>). An instance serves one payload. Formats that can decode incrementally keep only their
/// partial state between calls; formats that need the whole message consume nothing until
/// <c>isFinalBlock</c> is true, so the caller keeps the bytes in its pooled segments.
/// </summary>
public interface IOrganizationDecoder
{
    /// <summary>
    /// Decodes what it can of <paramref name="buffer"/> and returns the position up to which bytes were consumed;
    /// the caller hands the unconsumed rest back, followed by more bytes, on the next call.
    /// </summary>
    /// <param name="buffer">The bytes not yet consumed.</param>
    /// <param name="isFinalBlock">True when no more bytes will follow.</param>
    /// <exception cref="WireFormatException">The bytes are not a valid payload, or break a <see cref="DecodeLimits"/> limit.</exception>
    SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock);

    /// <summary>True once a whole payload has been decoded.</summary>
    bool IsComplete { get; }

    /// <summary>The decoded organization, once <see cref="IsComplete"/>.</summary>
    /// <exception cref="InvalidOperationException">The payload is not complete yet.</exception>
    Organization GetResult();
}
