using System.Buffers;
using System.Collections.Concurrent;

namespace WebSerialization.Api.Transport;

/// <summary>
/// Kestrel's buffers in blocks of 64 KB (configurable) instead of its own pool's 4 KB: a socket receive reads at most
/// one block, so an upload takes a sixteenth of the receives, pipe flushes and decoder wake-ups, which on one core
/// weigh about as much as decoding a protobuf body (docs/results/uploads-kestrel-pool.md beside uploads.md).
/// Blocks are pinned, as Kestrel's are, so sockets need no pin per operation; a block is its own owner, so a rental
/// allocates nothing once the pool is warm; at most <see cref="SocketBufferOptions.MaxPooledBlocks"/> free blocks are kept.
/// </summary>
public sealed class LargeBlockMemoryPool : MemoryPool<byte>
{
    private readonly ConcurrentQueue<Block> _free = new();
    private readonly int _blockBytes;
    private readonly int _maxPooledBlocks;
    private int _pooled;
    private bool _disposed;

    /// <summary>A pool of <paramref name="blockBytes"/>-byte blocks that keeps at most <paramref name="maxPooledBlocks"/> free ones.</summary>
    public LargeBlockMemoryPool(int blockBytes, int maxPooledBlocks)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(blockBytes, 4096);
        ArgumentOutOfRangeException.ThrowIfNegative(maxPooledBlocks);
        _blockBytes = blockBytes;
        _maxPooledBlocks = maxPooledBlocks;
    }

    /// <summary>Every block's size: a pipe asks the pool only for this much or less, and takes larger buffers elsewhere.</summary>
    public override int MaxBufferSize => _blockBytes;

    /// <summary>Free blocks kept for reuse now.</summary>
    public int PooledBlocks => Volatile.Read(ref _pooled);

    /// <summary>A whole block, whatever <paramref name="minBufferSize"/> up to <see cref="MaxBufferSize"/> asks for.</summary>
    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minBufferSize, _blockBytes);
        if (_free.TryDequeue(out var block))
        {
            Interlocked.Decrement(ref _pooled);
        }
        else
        {
            block = new Block(this, GC.AllocateUninitializedArray<byte>(_blockBytes, pinned: true));
        }

        return block;
    }

    /// <summary>Drops the free blocks; blocks still rented are left to the GC when they come back.</summary>
    protected override void Dispose(bool disposing)
    {
        _disposed = true;
        while (_free.TryDequeue(out _))
        {
            Interlocked.Decrement(ref _pooled);
        }
    }

    private void Return(Block block)
    {
        if (_disposed)
        {
            return;
        }

        if (Interlocked.Increment(ref _pooled) > _maxPooledBlocks)
        {
            Interlocked.Decrement(ref _pooled);
            return;
        }

        _free.Enqueue(block);
    }

    // A block and its owner at once: disposing it puts it back in the pool, once per rental as the pipe does.
    private sealed class Block(LargeBlockMemoryPool pool, byte[] array) : IMemoryOwner<byte>
    {
        public Memory<byte> Memory { get; } = array;

        public void Dispose() => pool.Return(this);
    }
}
