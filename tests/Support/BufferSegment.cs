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

    /// <summary>The payload, uncopied, in segments of <paramref name="segmentSize"/> bytes (the last may be shorter).</summary>
    public static ReadOnlySequence<byte> Split(ReadOnlyMemory<byte> payload, int segmentSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentSize);
        if (payload.IsEmpty)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new BufferSegment(payload[..Math.Min(segmentSize, payload.Length)], 0);
        var last = first;
        for (var offset = segmentSize; offset < payload.Length; offset += segmentSize)
        {
            var next = new BufferSegment(payload.Slice(offset, Math.Min(segmentSize, payload.Length - offset)), offset);
            last.Next = next;
            last = next;
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}
