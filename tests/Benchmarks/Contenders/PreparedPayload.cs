using System.Buffers;
using WebSerialization.Benchmarks.Streaming;
using WebSerialization.Tests.Support;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// A payload made in global setup, the input of a deserialization: as one array (what a plain
/// <c>Deserialize(byte[])</c> call gets) and as the same bytes in <see cref="SegmentSize"/> segments (what a pipe
/// hands a streaming reader). The segments are views of the array, not copies.
/// </summary>
public sealed class PreparedPayload
{
    /// <summary>The segment size: a pipe over a socket delivers pieces of this order.</summary>
    public const int SegmentSize = 64 * 1024;

    public PreparedPayload(byte[] bytes)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        Bytes = bytes;
        Segments = BufferSegment.Split(bytes, SegmentSize);
    }

    /// <summary>The whole payload.</summary>
    public byte[] Bytes { get; }

    /// <summary>The whole payload in segments of <see cref="SegmentSize"/> bytes.</summary>
    public ReadOnlySequence<byte> Segments { get; }
}
