using System.Buffers;

namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>Builds a <see cref="ReadOnlySequence{T}"/> out of many small segments, the way a pipe may hand bytes over.</summary>
internal sealed class SegmentedSequence : ReadOnlySequenceSegment<byte>
{
    private SegmentedSequence(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    /// <summary>Splits <paramref name="bytes"/> into segments of <paramref name="segmentSize"/> bytes (the last may be shorter).</summary>
    public static ReadOnlySequence<byte> Create(ReadOnlyMemory<byte> bytes, int segmentSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentSize);
        if (bytes.Length <= segmentSize)
        {
            return new ReadOnlySequence<byte>(bytes);
        }

        var first = new SegmentedSequence(bytes[..segmentSize], 0);
        var last = first;
        for (var start = segmentSize; start < bytes.Length; start += segmentSize)
        {
            var next = new SegmentedSequence(bytes.Slice(start, Math.Min(segmentSize, bytes.Length - start)), start);
            last.Next = next;
            last = next;
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}
