using System.IO.Pipelines;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Feeds a <see cref="PipeReader"/> (a request or response body) to an <see cref="IOrganizationDecoder"/> as the
/// bytes arrive. What the decoder consumes goes back to the pipe's pool at once; what it does not (at most one
/// unfinished unit) is kept in the pipe's pooled segments until more bytes come, never copied into one contiguous array.
/// </summary>
public static class OrganizationStreamReader
{
    /// <summary>Decodes one organization from <paramref name="input"/> with a decoder that builds it.</summary>
    /// <returns>The organization and the number of bytes read.</returns>
    /// <exception cref="WireFormatException">The bytes are not a valid payload, or break a limit.</exception>
    public static async Task<(Organization Organization, long BytesRead)> ReadAsync(
        PipeReader input,
        IOrganizationDecoder decoder,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(decoder);
        var bytesRead = await ReadToEndAsync(input, decoder, cancellationToken);
        return (decoder.GetResult(), bytesRead);
    }

    /// <summary>Decodes one payload from <paramref name="input"/>; the decoder's sink takes the members as they complete.</summary>
    /// <returns>The number of bytes read.</returns>
    /// <exception cref="WireFormatException">The bytes are not a valid payload, or break a limit.</exception>
    public static async Task<long> ReadToEndAsync(
        PipeReader input,
        IOrganizationDecoder decoder,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(decoder);

        // A read cancelled through its token leaves some readers (Kestrel's request body) mid-read, and their owner
        // then fails to drain or complete them; CancelPendingRead ends the read normally with IsCanceled instead.
        using var registration = cancellationToken.UnsafeRegister(static state => ((PipeReader)state!).CancelPendingRead(), input);
        long bytesRead = 0;
        while (true)
        {
            var result = await input.ReadAsync(CancellationToken.None);
            var buffer = result.Buffer;
            var consumed = buffer.Start;
            try
            {
                if (!result.IsCanceled)
                {
                    consumed = decoder.Decode(buffer, isFinalBlock: result.IsCompleted);
                    bytesRead += buffer.Slice(buffer.Start, consumed).Length;
                }
            }
            finally
            {
                // Every read must be ended, also when the decoder throws: a reader left mid-read cannot be drained
                // or completed by its owner (Kestrel logs that as an error and drops the connection).
                input.AdvanceTo(consumed, buffer.End);
            }

            if (result.IsCanceled)
            {
                throw new OperationCanceledException("Reading the payload was cancelled.", cancellationToken);
            }

            if (result.IsCompleted)
            {
                return bytesRead;
            }
        }
    }
}
