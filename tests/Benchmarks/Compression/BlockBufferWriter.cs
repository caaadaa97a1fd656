using System.Buffers;
using WebSerialization.Benchmarks.Streaming;
using WebSerialization.Codecs.Tests.Support;

namespace WebSerialization.Benchmarks.Compression;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over blocks rented from a pool, like the <c>Sequence&lt;byte&gt;</c> that
/// MessagePack-CSharp rents from its <c>SequencePool</c>: a request that does not fit the current block starts a new
/// one of at least the minimum size, leaving the old block short. The blocks go back to the pool on
/// <see cref="Dispose"/>.
/// </summary>
internal sealed class BlockBufferWriter(ArrayPool<byte> pool, int minimumBlockSize) : IBufferWriter<byte>, IDisposable
{
    private readonly List<(byte[] Array, int Length)> _full = [];
    private byte[]? _current;
    private int _used;

    /// <summary>Bytes written.</summary>
    public long Length { get; private set; }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, (_current?.Length ?? 0) - _used);
        _used += count;
        Length += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0) => EnsureRoom(sizeHint).AsMemory(_used);

    public Span<byte> GetSpan(int sizeHint = 0) => EnsureRoom(sizeHint).AsSpan(_used);

    /// <summary>The written bytes, block by block (no empty blocks).</summary>
    public List<ReadOnlyMemory<byte>> Blocks()
    {
        var blocks = new List<ReadOnlyMemory<byte>>(_full.Count + 1);
        foreach (var (array, length) in _full)
        {
            if (length > 0)
            {
                blocks.Add(array.AsMemory(0, length));
            }
        }

        if (_used > 0)
        {
            blocks.Add(_current.AsMemory(0, _used));
        }

        return blocks;
    }

    /// <summary>The written bytes as one sequence over the blocks, without copying them.</summary>
    public ReadOnlySequence<byte> ToSequence() => BufferSegment.Chain(Blocks());

    /// <summary>The written bytes copied into one array.</summary>
    public byte[] ToArray()
    {
        var result = new byte[Length];
        var offset = 0;
        foreach (var block in Blocks())
        {
            block.Span.CopyTo(result.AsSpan(offset));
            offset += block.Length;
        }

        return result;
    }

    public void Dispose()
    {
        foreach (var (array, _) in _full)
        {
            pool.Return(array);
        }

        _full.Clear();
        if (_current is not null)
        {
            pool.Return(_current);
            _current = null;
        }

        _used = 0;
        Length = 0;
    }

    private byte[] EnsureRoom(int sizeHint)
    {
        sizeHint = Math.Max(sizeHint, 1);
        if (_current is null || _current.Length - _used < sizeHint)
        {
            if (_current is not null)
            {
                _full.Add((_current, _used));
            }

            _current = pool.Rent(Math.Max(minimumBlockSize, sizeHint));
            _used = 0;
        }

        return _current;
    }
}
