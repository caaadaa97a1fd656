using System.IO.Pipelines;
using System.Numerics;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Benchmarks.Streaming;

/// <summary>
/// Kestrel's response body minus the socket: every flush frees the one reused buffer, so a serialization allocates
/// only what the writers do. <see cref="MaxUnflushedBytes"/> catches a writer that stops flushing, which reuse hides.
/// </summary>
internal sealed class DiscardingPipeWriter : PipeWriter
{
    /// <summary>The buffer size: the stream writer's chunk plus room for the batch that crossed it (256 bytes a member).</summary>
    public const int BufferSize = OrganizationStreamWriter.DefaultChunkSize + (OrganizationStreamWriter.MembersPerBatch * 256);

    private byte[] _buffer = new byte[BufferSize];

    // Where the next byte goes: bytes before it were written since the last flush.
    private int _position;

    // Bytes written since the last flush: what a real pipe would be holding now.
    private long _unflushed;

    /// <summary>Bytes written since <see cref="Reset"/>.</summary>
    public long BytesWritten { get; private set; }

    /// <summary>The most bytes written between two flushes since <see cref="Reset"/>.</summary>
    public long MaxUnflushedBytes { get; private set; }

    /// <summary>Forgets what was written, for the next payload.</summary>
    public void Reset() => (_position, _unflushed, BytesWritten, MaxUnflushedBytes) = (0, 0, 0, 0);

    public override void Advance(int bytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(bytes);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(bytes, _buffer.Length - _position);
        _position += bytes;
        _unflushed += bytes;
        BytesWritten += bytes;
        MaxUnflushedBytes = Math.Max(MaxUnflushedBytes, _unflushed);
    }

    public override Memory<byte> GetMemory(int sizeHint = 0) => _buffer.AsMemory(Reserve(sizeHint));

    public override Span<byte> GetSpan(int sizeHint = 0) => _buffer.AsSpan(Reserve(sizeHint));

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
    {
        (_position, _unflushed) = (0, 0);
        return new ValueTask<FlushResult>(new FlushResult(isCanceled: false, isCompleted: false));
    }

    public override void CancelPendingFlush() { }

    public override void Complete(Exception? exception = null) { }

    private int Reserve(int sizeHint)
    {
        sizeHint = Math.Max(sizeHint, 1);
        if (_buffer.Length - _position < sizeHint)
        {
            // The bytes before this point count as sent (the reader keeps up), so the buffer starts over; only a
            // request larger than the whole buffer makes it grow, and that allocation then shows in the results.
            if (sizeHint > _buffer.Length)
            {
                _buffer = new byte[BitOperations.RoundUpToPowerOf2((uint)sizeHint)];
            }

            _position = 0;
        }

        return _position;
    }
}
