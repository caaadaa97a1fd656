using System.Buffers;
using System.IO.Pipelines;

namespace WebSerialization.Benchmarks.Streaming;

/// <summary>
/// A payload in memory delivered as a socket fills a pipe: each read adds the next <c>chunkSize</c> bytes to what the
/// caller left unconsumed. Reads complete synchronously, so no time goes to waiting.
/// </summary>
internal sealed class SegmentedPipeReader(ReadOnlySequence<byte> payload, int chunkSize) : PipeReader
{
    private SequencePosition _consumed = payload.Start;
    private SequencePosition _delivered = payload.Start;
    private long _deliveredLength;

    public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        TryRead(out var result);
        return new ValueTask<ReadResult>(result);
    }

    public override bool TryRead(out ReadResult result)
    {
        var next = Math.Min(chunkSize, payload.Length - _deliveredLength);
        _delivered = payload.GetPosition(next, _delivered);
        _deliveredLength += next;
        result = new ReadResult(payload.Slice(_consumed, _delivered), isCanceled: false, isCompleted: _deliveredLength == payload.Length);
        return true;
    }

    public override void AdvanceTo(SequencePosition consumed) => _consumed = consumed;

    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined) => _consumed = consumed;

    public override void CancelPendingRead() { }

    public override void Complete(Exception? exception = null) { }
}
