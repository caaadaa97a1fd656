using System.Buffers;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// A read-only <see cref="Stream"/> over one <see cref="ReadOnlySequence{T}"/> at a time, so that a single
/// Google.Protobuf <c>CodedInputStream</c> can parse field after field straight from a pipe's segments: the
/// decoder points it at each complete field in turn. <see cref="Position"/> counts every byte handed out since
/// the stream was created, across sources, which is what <c>CodedInputStream.Position</c> is computed from.
/// </summary>
internal sealed class ReadOnlySequenceStream : Stream
{
    private ReadOnlySequence<byte> _remaining;
    private long _position;

    /// <summary>The bytes of the current source not yet read.</summary>
    public ReadOnlySequence<byte> Remaining => _remaining;

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    /// <summary>Makes <paramref name="source"/> the bytes that the following reads return.</summary>
    public void SetSource(ReadOnlySequence<byte> source) => _remaining = source;

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        var count = (int)Math.Min(buffer.Length, _remaining.Length);
        var chunk = _remaining.Slice(0, count);
        chunk.CopyTo(buffer);
        _remaining = _remaining.Slice(chunk.End);
        _position += count;
        return count;
    }

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
