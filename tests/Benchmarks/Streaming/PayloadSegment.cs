using System.Buffers;

namespace WebSerialization.Benchmarks.Streaming;

/// <summary>A segment of a <see cref="ReadOnlySequence{T}"/> built over slices of one array, the way a pipe links its buffers.</summary>
internal sealed class PayloadSegment : ReadOnlySequenceSegment<byte>
{
    private PayloadSegment(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    /// <summary><paramref name="payload"/> as a sequence of <paramref name="segmentSize"/>-byte segments (the last may be shorter).</summary>
    public static ReadOnlySequence<byte> Split(ReadOnlyMemory<byte> payload, int segmentSize)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(segmentSize, 1);
        if (payload.IsEmpty)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new PayloadSegment(payload[..Math.Min(segmentSize, payload.Length)], 0);
        var last = first;
        for (var offset = first.Memory.Length; offset < payload.Length; offset += segmentSize)
        {
            var next = new PayloadSegment(payload.Slice(offset, Math.Min(segmentSize, payload.Length - offset)), offset);
            last.Next = next;
            last = next;
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    /// <summary>The blocks, in order, as one sequence (no copy).</summary>
    public static ReadOnlySequence<byte> Chain(IReadOnlyList<ReadOnlyMemory<byte>> blocks)
    {
        ArgumentNullException.ThrowIfNull(blocks);
        if (blocks.Count == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new PayloadSegment(blocks[0], 0);
        var last = first;
        for (var i = 1; i < blocks.Count; i++)
        {
            var next = new PayloadSegment(blocks[i], last.RunningIndex + last.Memory.Length);
            last.Next = next;
            last = next;
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}
