using System.Buffers;
using System.IO.Pipelines;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Feeds a <see cref="PipeReader"/> (a request or response body) to an <see cref="IOrganizationDecoder"/> as the
/// bytes arrive. What the decoder consumes goes back to the pipe's pool at once; what it does not (at most one
/// unfinished unit) is kept in the pipe's pooled segments until more bytes come, never copied into one contiguous array.
/// </summary>
public static class OrganizationStreamReader
{
    /// <summary>
    /// The most bytes decoded between two calls of a caller's <c>afterBlock</c>: a pipe read can hold up to Kestrel's
    /// 1 MB request buffer, and a converter that wrote all of it out before flushing would hold several MB of output.
    /// </summary>
    public const int BlockSize = 64 * 1024;

    /// <summary>Decodes one organization from <paramref name="input"/> with a decoder that builds it.</summary>
    /// <returns>The organization and the number of bytes read.</returns>
    /// <exception cref="WireFormatException">The bytes are not a valid payload, or break a limit.</exception>
    public static async Task<(Organization Organization, long BytesRead)> ReadAsync(
        PipeReader input,
        IOrganizationDecoder decoder,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(decoder);
        var bytesRead = await ReadToEndAsync(input, decoder, afterBlock: null, cancellationToken);
        return (decoder.GetResult(), bytesRead);
    }

    /// <summary>
    /// Decodes one payload from <paramref name="input"/>; the decoder's sink takes the members as they complete.
    /// When <paramref name="afterBlock"/> is given, the bytes are decoded in blocks of at most <see cref="BlockSize"/>
    /// and it is awaited after each (a converter flushes there).
    /// </summary>
    /// <returns>The number of bytes read.</returns>
    /// <exception cref="WireFormatException">The bytes are not a valid payload, or break a limit.</exception>
    public static async Task<long> ReadToEndAsync(
        PipeReader input,
        IOrganizationDecoder decoder,
        Func<CancellationToken, ValueTask>? afterBlock,
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
                    var remaining = buffer;
                    var blockSize = afterBlock is null ? long.MaxValue : BlockSize;
                    while (true)
                    {
                        var block = remaining.Length <= blockSize ? remaining : remaining.Slice(0, blockSize);
                        var isLast = block.Length == remaining.Length;
                        consumed = decoder.Decode(block, isFinalBlock: result.IsCompleted && isLast);
                        var used = remaining.Slice(remaining.Start, consumed).Length;
                        bytesRead += used;
                        remaining = remaining.Slice(consumed);
                        if (afterBlock is not null && used > 0)
                        {
                            await afterBlock(cancellationToken);
                        }

                        if (isLast)
                        {
                            break;
                        }

                        // A unit longer than a block (a long string) gets all the bytes there are.
                        blockSize = used > 0 ? BlockSize : long.MaxValue;
                    }
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
