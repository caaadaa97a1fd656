using System.Buffers;

namespace WebSerialization.Models.Protobuf;

/// <summary>
/// A write-only <see cref="Stream"/> that copies into the current <see cref="IBufferWriter{T}"/>, so that
/// Google.Protobuf's <c>CodedOutputStream</c> (which writes to a byte array or a stream) can feed a pipe without
/// doing I/O itself. Nothing here blocks: the pipe's owner flushes asynchronously between chunks.
/// </summary>
internal sealed class BufferWriterStream : Stream
{
    public IBufferWriter<byte>? Output { get; set; }

    public long BytesWritten { get; private set; }

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        var output = Output ?? throw new InvalidOperationException("No output is set.");
        output.Write(buffer);
        BytesWritten += buffer.Length;
    }

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
