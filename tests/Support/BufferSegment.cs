using System.Buffers;

namespace WebSerialization.Tests.Support;

/// <summary>
/// A segment of a hand-built <see cref="ReadOnlySequence{T}"/>, to feed decoders pieces the way a pipe does.
/// The codec tests decode from them, and the benchmarks build their segmented payloads with them.
/// </summary>
public sealed class BufferSegment : ReadOnlySequenceSegment<byte>
{
    private BufferSegment(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    /// <summary>The payload as a sequence of segments of <paramref name="segmentSize"/> bytes (the last may be shorter).</summary>
    public static ReadOnlySequence<byte> Split(ReadOnlyMemory<byte> payload, int segmentSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentSize);
        var blocks = new List<ReadOnlyMemory<byte>>();
        for (var offset = 0; offset < payload.Length; offset += segmentSize)
        {
            blocks.Add(payload.Slice(offset, Math.Min(segmentSize, payload.Length - offset)));
        }

        return Chain(blocks);
    }

    /// <summary>The blocks, in order, as one sequence (no copy).</summary>
    public static ReadOnlySequence<byte> Chain(IReadOnlyList<ReadOnlyMemory<byte>> blocks)
    {
        ArgumentNullException.ThrowIfNull(blocks);
        if (blocks.Count == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new BufferSegment(blocks[0], 0);
        var last = first;
        for (var i = 1; i < blocks.Count; i++)
        {
            var next = new BufferSegment(blocks[i], last.RunningIndex + last.Memory.Length);
            last.Next = next;
            last = next;
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}
