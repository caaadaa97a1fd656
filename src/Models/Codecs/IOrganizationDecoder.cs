using System.Buffers;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// Decodes one <see cref="Organization"/> from bytes that arrive in pieces (a request body read from a
/// <c>PipeReader</c>), handing the header and each member to an <see cref="IOrganizationSink"/> as soon as it is
/// complete. An instance serves one payload; between calls it keeps only its partial state and at most one
/// unfinished unit (a member, a tag, a token) in the caller's unconsumed bytes.
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

    /// <summary>The decoded organization, once <see cref="IsComplete"/>, for a decoder that builds it (<see cref="IWireFormatCodec.CreateDecoder(DecodeLimits)"/>).</summary>
    /// <exception cref="InvalidOperationException">The payload is not complete yet, or its members went to another sink.</exception>
    Organization GetResult();
}
