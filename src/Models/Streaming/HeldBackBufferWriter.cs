using System.Buffers;
using System.IO.Pipelines;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Holds what is written in a pooled buffer of its own until <see cref="Release"/>, then passes everything on to the
/// output. A server's response starts with the first byte written to its body, and its status can no longer change;
/// holding back the first chunk means an upload found bad within it still gets a 4xx problem instead of a cut-off 200.
/// </summary>
internal sealed class HeldBackBufferWriter(PipeWriter output) : IBufferWriter<byte>, IDisposable
{
    private const int InitialSize = 64 * 1024;

    private byte[]? _held = ArrayPool<byte>.Shared.Rent(InitialSize);
    private int _heldCount;

    /// <summary>Whether the held bytes have gone to the output, and every later write goes straight there.</summary>
    public bool IsReleased => _held is null;

    /// <inheritdoc />
    public void Advance(int count)
    {
        if (_held is null)
        {
            output.Advance(count);
        }
        else
        {
            _heldCount += count;
        }
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0) => _held is null ? output.GetMemory(sizeHint) : Reserve(sizeHint).AsMemory(_heldCount);

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0) => _held is null ? output.GetSpan(sizeHint) : Reserve(sizeHint).AsSpan(_heldCount);

    /// <summary>Writes the held bytes to the output (unflushed); from now on every write goes straight there.</summary>
    public void Release()
    {
        if (_held is { } held)
        {
            output.Write(held.AsSpan(0, _heldCount));
            Dispose();
        }
    }

    /// <summary>Returns the buffer to the pool, dropping what it holds.</summary>
    public void Dispose()
    {
        if (_held is { } held)
        {
            _held = null;
            ArrayPool<byte>.Shared.Return(held);
        }
    }

    private byte[] Reserve(int sizeHint)
    {
        var held = _held!;
        var needed = _heldCount + Math.Max(sizeHint, 1);
        if (needed > held.Length)
        {
            var larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, 2 * held.Length));
            held.AsSpan(0, _heldCount).CopyTo(larger);
            ArrayPool<byte>.Shared.Return(held);
            _held = held = larger;
        }

        return held;
    }
}
