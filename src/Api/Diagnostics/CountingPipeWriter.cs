using System.IO.Pipelines;
using System.Runtime.CompilerServices;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Passes every call to the server's response <see cref="PipeWriter"/> and counts the bytes committed with
/// <see cref="Advance"/> or <see cref="WriteAsync"/>. The encoders write straight into the server's buffers
/// through <see cref="GetSpan"/>, so counting costs an addition per commit, not a copy.
/// </summary>
internal sealed class CountingPipeWriter(PipeWriter inner) : PipeWriter
{
    /// <summary>Bytes handed to the server so far.</summary>
    public long BytesWritten { get; private set; }

    /// <summary>
    /// True once a flush came back completed or canceled: the connection stopped taking the body, so the response
    /// did not reach the client whole. Known here at once, where the request's aborted token is cancelled later, on
    /// the thread pool, and may not be yet when the request ends.
    /// </summary>
    public bool ReaderGone { get; private set; }

    /// <inheritdoc />
    public override bool CanGetUnflushedBytes => inner.CanGetUnflushedBytes;

    /// <inheritdoc />
    public override long UnflushedBytes => inner.UnflushedBytes;

    /// <inheritdoc />
    public override void Advance(int bytes)
    {
        inner.Advance(bytes);
        BytesWritten += bytes;
    }

    /// <inheritdoc />
    public override Memory<byte> GetMemory(int sizeHint = 0) => inner.GetMemory(sizeHint);

    /// <inheritdoc />
    public override Span<byte> GetSpan(int sizeHint = 0) => inner.GetSpan(sizeHint);

    /// <inheritdoc />
    public override ValueTask<FlushResult> WriteAsync(ReadOnlyMemory<byte> source, CancellationToken cancellationToken = default)
    {
        BytesWritten += source.Length;
        return Observe(inner.WriteAsync(source, cancellationToken));
    }

    /// <inheritdoc />
    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default) => Observe(inner.FlushAsync(cancellationToken));

    private ValueTask<FlushResult> Observe(ValueTask<FlushResult> flush)
    {
        if (!flush.IsCompletedSuccessfully)
        {
            return ObserveAsync(flush);
        }

        var result = flush.Result;
        ReaderGone |= result.IsCompleted || result.IsCanceled;
        return new ValueTask<FlushResult>(result);
    }

    // Pooled: a download flushes every chunk and waits on the socket for most of them, so a state machine per wait
    // would be a cost per chunk, which the smoke's million-member download budget exists to catch.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<FlushResult> ObserveAsync(ValueTask<FlushResult> flush)
    {
        var result = await flush.ConfigureAwait(false);
        ReaderGone |= result.IsCompleted || result.IsCanceled;
        return result;
    }

    /// <inheritdoc />
    public override void CancelPendingFlush() => inner.CancelPendingFlush();

    /// <inheritdoc />
    public override void Complete(Exception? exception = null) => inner.Complete(exception);

    /// <inheritdoc />
    public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);
}
