using System.IO.Pipelines;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Streams an <see cref="Organization"/> to a <see cref="PipeWriter"/> in bounded chunks: members are encoded
/// synchronously in small batches, and <see cref="PipeWriter.FlushAsync"/> is awaited whenever a chunk's worth of
/// bytes is pending. A <see cref="PipeWriter"/> holds everything written until it is flushed, so the flushes are
/// what keep memory bounded; they are also where backpressure and client disconnects are seen.
/// </summary>
public static class OrganizationStreamWriter
{
    /// <summary>
    /// Bytes written between two flushes: about the only memory a response holds. Every flush is a socket send and,
    /// when it waits for the socket, a few hundred bytes allocated by Kestrel, so the chunk size also sets what a response
    /// costs per byte sent (docs/results/downloads-chunk-131072.md measures the 128 KB chunk this one replaced).
    /// </summary>
    public const int DefaultChunkSize = 512 * 1024;

    /// <summary>
    /// Bytes flushed without the output making the writer wait, after which it yields its thread anyway (see the
    /// member loop), so that work queued behind a response waits at most the time it takes to encode this many bytes.
    /// Against a real socket most flushes wait, and then the writer has given up its thread already.
    /// </summary>
    public const int YieldEvery = 4 * 1024 * 1024;

    /// <summary>
    /// Members encoded per call to the encoder: small enough that one batch of ordinary members stays well under a chunk
    /// (the byte count decides when to flush), large enough that the output's buffer calls, a lock each in Kestrel's
    /// response pipe, stay rare beside the members.
    /// </summary>
    public const int MembersPerBatch = 256;

    // The buffer asked of the output whenever its current one is used up, so that a chunk is a few large blocks rather
    // than a hundred 4 KB ones (see LargeSegmentBufferWriter). 64 KB less room for a server's framing: Kestrel adds 12
    // bytes to a chunked body's request before renting from the array pool, which rounds up to a power of two.
    internal const int SegmentSize = (64 * 1024) - 64;

    /// <summary>Writes <paramref name="organization"/> with its first <paramref name="memberCount"/> members.</summary>
    /// <returns>The number of bytes written.</returns>
    /// <exception cref="OperationCanceledException">The token was cancelled or the reader went away.</exception>
    public static async Task<long> WriteAsync(
        PipeWriter output,
        IOrganizationEncoder encoder,
        Organization organization,
        int memberCount,
        CancellationToken cancellationToken,
        int chunkSize = DefaultChunkSize)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(encoder);
        ArgumentNullException.ThrowIfNull(organization);
        var members = organization.Members;
        memberCount = members is null ? 0 : memberCount;
        ArgumentOutOfRangeException.ThrowIfNegative(memberCount);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(memberCount, members?.Count ?? 0);

        var buffers = new LargeSegmentBufferWriter(output, SegmentSize);
        long total = 0;
        long sinceWait = 0;
        long pending = encoder.WriteHeader(buffers, organization, memberCount);
        for (var index = 0; index < memberCount;)
        {
            var batch = Math.Min(MembersPerBatch, memberCount - index);
            pending += encoder.WriteMembers(buffers, CollectionsMarshal.AsSpan(members).Slice(index, batch));
            index += batch;
            if (pending >= chunkSize)
            {
                total += pending;
                sinceWait += pending;
                pending = 0;

                // Awaited here rather than in a helper: an async helper would box a state machine for every flush
                // that has to wait, which is most of them when the client reads slower than we encode.
                var flush = output.FlushAsync(cancellationToken);
                if (flush.IsCompleted)
                {
                    ThrowIfReaderGone(flush.Result, cancellationToken);

                    // A flush that did not wait leaves this loop on its thread-pool thread. Once a client has gone
                    // behind a stream that hides it (response compression), every flush completes at once, and the
                    // only signal is the cancellation token, which the server raises from a thread-pool work item that
                    // could wait behind this loop until the whole body is encoded for no one. So after every
                    // YieldEvery bytes flushed without a wait, queued work gets a turn, when there is a cancellation to
                    // wait for; not after every flush, since a yield is a thread-pool hop.
                    if (sinceWait >= YieldEvery && cancellationToken.CanBeCanceled)
                    {
                        sinceWait = 0;
                        await Task.Yield();
                    }
                }
                else
                {
                    ThrowIfReaderGone(await flush, cancellationToken);
                    sinceWait = 0;
                }
            }
        }

        pending += encoder.WriteFooter(buffers);
        total += pending;
        ThrowIfReaderGone(await output.FlushAsync(cancellationToken), cancellationToken);
        return total;
    }

    // Completed means the reader (the client's connection) is gone: stop encoding rather than fill memory no one reads.
    private static void ThrowIfReaderGone(FlushResult result, CancellationToken cancellationToken)
    {
        if (result.IsCanceled || result.IsCompleted)
        {
            throw new OperationCanceledException("The reader stopped reading the payload.", cancellationToken);
        }
    }
}
