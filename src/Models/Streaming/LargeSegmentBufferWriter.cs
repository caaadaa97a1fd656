using System.Buffers;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Passes every call to another <see cref="IBufferWriter{T}"/>, but when that writer's current buffer cannot hold what
/// is asked for, asks it for at least <c>segmentSize</c> bytes instead of the few the encoder needs. Encoders ask for a
/// few bytes to a few KB at a time, and a pipe answers a request its current block cannot hold with a new block of
/// its default size (Kestrel: 4 KB, or 8 KB for anything over 4 KB), so a 512 KB chunk would end up in 64 to 128
/// blocks, and a socket send allocates I/O vectors on the heap for that many (.NET's SocketPal on Unix, 24 bytes a block,
/// beyond 8). With 64 KB segments a chunk is about ten blocks.
/// </summary>
/// <remarks>
/// The size of the writer's current buffer is tracked from what it returned and what was advanced since, only to
/// choose the size asked for; every byte is still written into a buffer the writer has just returned. If the tracking
/// is off (a pipe that frames what it was given, as Kestrel's chunked body does, has a few bytes less), the writer
/// simply answers with a buffer of its own choosing, as it would have without this class.
/// </remarks>
internal sealed class LargeSegmentBufferWriter(IBufferWriter<byte> output, int segmentSize) : IBufferWriter<byte>
{
    // Bytes left in the buffer the output returned last, after what was advanced since.
    private int _remaining;

    /// <inheritdoc />
    public void Advance(int count)
    {
        output.Advance(count);
        _remaining -= count;
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        var memory = output.GetMemory(SizeToAskFor(sizeHint));
        _remaining = memory.Length;
        return memory;
    }

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        var span = output.GetSpan(SizeToAskFor(sizeHint));
        _remaining = span.Length;
        return span;
    }

    // What still fits goes where the last bytes went; what does not starts a large buffer.
    private int SizeToAskFor(int sizeHint) =>
        _remaining > 0 && sizeHint <= _remaining ? sizeHint : Math.Max(sizeHint, segmentSize);
}
