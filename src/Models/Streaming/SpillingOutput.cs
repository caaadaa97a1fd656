using System.Buffers;
using System.IO.Pipelines;
using Microsoft.Win32.SafeHandles;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Where a conversion writes while its input is still arriving. Bytes collect in a pooled buffer; every full chunk
/// (<see cref="Push"/>) goes to the output with a flush that is started but never waited for, or, while the previous
/// flush is still waiting for the client, to a temporary file (deleted on close) that is drained first once the
/// output takes bytes again. Only <see cref="CompleteAsync"/>, after the input has ended, waits for the client.
/// </summary>
/// <remarks>
/// Waiting for the client while the input is unread would deadlock with an HTTP/1.1 client that reads no response
/// before it has sent its whole request (HTTP/1.1 allows it): the server would stop reading the request, the client
/// could not finish sending it, and neither would move; and it would slow the upload of a client that reads more
/// slowly than it sends (one whose single core also sends) to its reading pace. With the file, a client that reads as it sends gets the
/// output as it is made, one that does not gets it once it has sent everything, and memory is a few chunks either way.
/// The first chunk is held back until it is full, so an input found bad within it leaves the output untouched.
/// The file is written and read synchronously between members (a chunk written, up to MaxDrainChunks read): the pages
/// are fresh in the page cache, and an await there would need the decoder's state to cross it.
/// </remarks>
internal sealed class SpillingOutput(PipeWriter output, int chunkSize) : IBufferWriter<byte>, IDisposable
{
    // The most chunks one push moves from the file to the output, and so what the output may hold beyond a chunk.
    private const int MaxDrainChunks = 4;

    private readonly LargeSegmentBufferWriter _large = new(output, OrganizationStreamWriter.SegmentSize);
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(2 * chunkSize);
    private int _buffered;
    private ValueTask<FlushResult> _flush;
    private bool _flushPending;
    private SafeFileHandle? _file;
    private long _fileWritten;
    private long _fileRead;

    /// <summary>Whether any byte has gone to the output (a server's response has started).</summary>
    public bool HasStarted { get; private set; }

    /// <summary>When true, every chunk goes to the file, to be written after what <see cref="CompleteAsync"/> puts first.</summary>
    public bool HoldAll { get; set; }

    /// <summary>Bytes written since the last <see cref="Push"/>.</summary>
    public int Buffered => _buffered;

    /// <inheritdoc />
    public void Advance(int count) => _buffered += count;

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0) => Reserve(sizeHint).AsMemory(_buffered);

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0) => Reserve(sizeHint).AsSpan(_buffered);

    /// <summary>Hands the buffered bytes on without waiting: to the output if it is free, else to the file.</summary>
    /// <exception cref="OperationCanceledException">The output's reader has gone.</exception>
    public void Push(CancellationToken cancellationToken)
    {
        if (_buffered == 0)
        {
            return;
        }

        if (HoldAll || !OutputIsFree(cancellationToken))
        {
            Spill();
            return;
        }

        // What the file holds goes first, up to MaxDrainChunks of it, then this chunk once the file is empty, all in one
        // flush: moved a chunk a flush, a file that the input fills a chunk a flush would never empty.
        HasStarted = true;
        var drainTo = Math.Min(_fileWritten, _fileRead + (MaxDrainChunks * (long)chunkSize));
        while (_fileRead < drainTo)
        {
            var span = _large.GetSpan(OrganizationStreamWriter.SegmentSize);
            var read = RandomAccess.Read(_file!, span[..(int)Math.Min(span.Length, drainTo - _fileRead)], _fileRead);
            _large.Advance(read);
            _fileRead += read;
        }

        if (_fileRead < _fileWritten)
        {
            Spill();
        }
        else
        {
            Write(_buffer.AsSpan(0, _buffered));
            _buffered = 0;
        }

        StartFlush(cancellationToken);
    }

    /// <summary>Writes <paramref name="first"/>, then the file, then the buffer, waiting for the output as it goes.</summary>
    /// <exception cref="OperationCanceledException">The token was cancelled or the output's reader has gone.</exception>
    public async Task CompleteAsync(ReadOnlyMemory<byte> first, CancellationToken cancellationToken)
    {
        await WaitForFlushAsync(cancellationToken);
        HasStarted = true;
        Write(first.Span);
        while (_fileRead < _fileWritten)
        {
            var memory = _large.GetMemory(OrganizationStreamWriter.SegmentSize);
            var read = await RandomAccess.ReadAsync(_file!, memory[..(int)Math.Min(memory.Length, _fileWritten - _fileRead)], _fileRead, cancellationToken);
            _large.Advance(read);
            _fileRead += read;
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

    // True when no flush waits for the output's reader.
    private bool OutputIsFree(CancellationToken cancellationToken)
    {
        if (_flushPending)
        {
            if (!_flush.IsCompleted)
            {
                return false;
            }

            _flushPending = false;
            ThrowIfReaderGone(_flush.Result, cancellationToken);
        }

        return true;
    }

    private void Spill()
    {
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

    private void StartFlush(CancellationToken cancellationToken)
    {
        _flush = output.FlushAsync(cancellationToken);
        _flushPending = true;
        if (_flush.IsCompleted)
        {
            _flushPending = false;
            ThrowIfReaderGone(_flush.Result, cancellationToken);
        }
    }

    private async ValueTask WaitForFlushAsync(CancellationToken cancellationToken)
    {
        if (_flushPending)
        {
            _flushPending = false;
            ThrowIfReaderGone(await _flush, cancellationToken);
        }
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

    // Completed means the reader (the client's connection) is gone: stop converting rather than fill a file no one reads.
    private static void ThrowIfReaderGone(FlushResult result, CancellationToken cancellationToken)
    {
        if (result.IsCanceled || result.IsCompleted)
        {
            throw new OperationCanceledException("The reader stopped reading the payload.", cancellationToken);
        }
    }
}
