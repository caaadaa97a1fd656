using System.IO.Pipelines;
using Microsoft.AspNetCore.Http.Features;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Stands in for the server's response body feature for one request and counts the body bytes written through
/// either of its two doors (the <see cref="PipeWriter"/> and the <see cref="Stream"/>), plus files sent whole.
/// The two doors lead into the server's own pipe separately, so no byte is counted twice.
/// </summary>
internal sealed class CountingResponseBodyFeature(IHttpResponseBodyFeature inner) : IHttpResponseBodyFeature
{
    private CountingPipeWriter? _writer;
    private CountingWriteStream? _stream;
    private long _fileBytes;

    /// <summary>Body bytes handed to the server so far.</summary>
    public long BytesWritten => (_writer?.BytesWritten ?? 0) + (_stream?.BytesWritten ?? 0) + _fileBytes;

    /// <summary>True once the server's pipe stopped taking the body (see <see cref="CountingPipeWriter.ReaderGone"/>).</summary>
    public bool ReaderGone => _writer?.ReaderGone ?? false;

    /// <inheritdoc />
    public Stream Stream => _stream ??= new CountingWriteStream(inner.Stream);

    /// <inheritdoc />
    public PipeWriter Writer => _writer ??= new CountingPipeWriter(inner.Writer);

    /// <inheritdoc />
    public void DisableBuffering() => inner.DisableBuffering();

    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken = default) => inner.StartAsync(cancellationToken);

    /// <inheritdoc />
    public Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default)
    {
        _fileBytes += count ?? (new FileInfo(path).Length - offset);
        return inner.SendFileAsync(path, offset, count, cancellationToken);
    }

    /// <inheritdoc />
    public Task CompleteAsync() => inner.CompleteAsync();
}
