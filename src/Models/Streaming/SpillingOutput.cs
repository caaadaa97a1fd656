using System.Buffers;
using System.IO.Pipelines;
using Microsoft.Win32.SafeHandles;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Holds a conversion's output until its input has ended: bytes collect in a pooled buffer, every full chunk
/// (<see cref="Push"/>) goes to a temporary file (deleted on close), and only <see cref="CompleteAsync"/> writes to the
/// output: what must come first, then the file, then the buffer. ASP.NET Core's FileBufferingWriteStream does this for
/// a <see cref="Stream"/>; this is the buffer the encoders write into in place, in an assembly without ASP.NET Core.
/// </summary>
/// <remarks>
/// Nothing goes out while the input is still arriving. An HTTP/1.1 client may read no response before it has sent its
/// whole request (HttpClient reads none), and an answer sent meanwhile piles up unread in its socket: on loopback a
/// receive buffer filled that way stalled TCP in both directions, the server waiting for the rest of the request and
/// the client for its acknowledgements, until the client gave up (docs/performance.md, "Uploads and converts"). Held
/// back, a bad input is found before any byte of the answer has gone, so it always gets its 4xx problem, and memory
/// stays a chunk or two. The file is written synchronously between members: the pages are fresh in the page cache, and
/// an await there would need the decoder's state to cross it.
/// </remarks>
internal sealed class SpillingOutput(PipeWriter output, int chunkSize) : IBufferWriter<byte>, IDisposable
{
    private readonly LargeSegmentBufferWriter _large = new(output, OrganizationStreamWriter.SegmentSize);
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(2 * chunkSize);
    private int _buffered;
    private SafeFileHandle? _file;
    private long _fileWritten;

    /// <summary>Whether <see cref="CompleteAsync"/> has begun writing to the output (a server's response may have started).</summary>
    public bool HasStarted { get; private set; }

    /// <summary>Bytes written since the last <see cref="Push"/>.</summary>
    public int Buffered => _buffered;

    /// <inheritdoc />
    public void Advance(int count) => _buffered += count;

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0) => Reserve(sizeHint).AsMemory(_buffered);

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0) => Reserve(sizeHint).AsSpan(_buffered);

    /// <summary>Moves the buffered bytes to the temporary file.</summary>
    public void Push()
    {
        if (_buffered == 0)
        {
            return;
        }

        _file ??= File.OpenHandle(
            Path.Combine(Path.GetTempPath(), OrganizationStreamConverter.TemporaryFilePrefix + Path.GetRandomFileName()),
            FileMode.CreateNew,
            FileAccess.ReadWrite,
            FileShare.None,
            FileOptions.DeleteOnClose);
        RandomAccess.Write(_file, _buffer.AsSpan(0, _buffered), _fileWritten);
        _fileWritten += _buffered;
        _buffered = 0;
    }

    /// <summary>Writes <paramref name="first"/>, then the file, then the buffer, waiting for the output as it goes.</summary>
    /// <exception cref="OperationCanceledException">The token was cancelled or the output's reader has gone.</exception>
    public async Task CompleteAsync(ReadOnlyMemory<byte> first, CancellationToken cancellationToken)
    {
        HasStarted = true;
        Write(first.Span);
        for (long fileRead = 0; fileRead < _fileWritten;)
        {
            var memory = _large.GetMemory(OrganizationStreamWriter.SegmentSize);
            var read = await RandomAccess.ReadAsync(_file!, memory[..(int)Math.Min(memory.Length, _fileWritten - fileRead)], fileRead, cancellationToken);
            if (read == 0)
            {
                throw new EndOfStreamException($"The conversion's temporary file ended at {fileRead} of the {_fileWritten} bytes written to it.");
            }

            _large.Advance(read);
            fileRead += read;
            ThrowIfReaderGone(await output.FlushAsync(cancellationToken), cancellationToken);
        }

        Write(_buffer.AsSpan(0, _buffered));
        _buffered = 0;
        ThrowIfReaderGone(await output.FlushAsync(cancellationToken), cancellationToken);
    }

    /// <summary>Returns the buffer and deletes the file.</summary>
    public void Dispose()
    {
        if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = [];
        }

        _file?.Dispose();
    }

    private void Write(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            var span = _large.GetSpan(Math.Min(bytes.Length, OrganizationStreamWriter.SegmentSize));
            var count = Math.Min(span.Length, bytes.Length);
            bytes[..count].CopyTo(span);
            _large.Advance(count);
            bytes = bytes[count..];
        }
    }

    private byte[] Reserve(int sizeHint)
    {
        var needed = _buffered + Math.Max(sizeHint, 1);
        if (needed > _buffer.Length)
        {
            var larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, 2 * _buffer.Length));
            _buffer.AsSpan(0, _buffered).CopyTo(larger);
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = larger;
        }

        return _buffer;
    }

    // Completed means the reader (the client's connection) is gone: stop rather than write to no one.
    private static void ThrowIfReaderGone(FlushResult result, CancellationToken cancellationToken)
    {
        if (result.IsCanceled || result.IsCompleted)
        {
            throw new OperationCanceledException("The reader stopped reading the payload.", cancellationToken);
        }
    }
}
