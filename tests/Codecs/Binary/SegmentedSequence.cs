using System.Buffers;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>Builds a <see cref="ReadOnlySequence{T}"/> out of segments of a chosen size, to put boundaries everywhere.</summary>
internal static class SegmentedSequence
{
    public static ReadOnlySequence<byte> Create(ReadOnlyMemory<byte> bytes, int segmentSize)
    {
        if (bytes.Length <= segmentSize)
        {
            return new ReadOnlySequence<byte>(bytes);
        }

        var first = new Segment(bytes[..segmentSize], 0);
        var last = first;
        for (var start = segmentSize; start < bytes.Length; start += segmentSize)
        {
            last = last.Append(bytes[start..Math.Min(bytes.Length, start + segmentSize)]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Segment Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Segment(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
