using System.Buffers;
using System.Collections.Concurrent;

namespace WebSerialization.Api.Transport;

/// <summary>
/// Kestrel's buffers in large blocks (1 MB by default) instead of its own pool's 4 KB: a socket receive reads at most
/// one block, so an upload takes far fewer receives, and on one core each receive's pipe flush, wake-up and the TCP
/// acknowledgement it sends cost server CPU (docs/results/uploads-kestrel-pool.md beside uploads.md).
/// At most <see cref="LargeBlocks.Max"/> large blocks exist at once, shared by every pool made from one
/// <see cref="LargeBlocks"/>; past that the pool hands out small blocks (64 KB by default), so many connections with
/// bytes in flight (slow clients sending headers, hundreds of concurrent downloads) cost what small blocks cost.
/// Blocks are pinned, as Kestrel's are, so sockets need no pin per operation; a block is its own owner, so a rental
/// allocates nothing once the pool is warm; at most <c>maxPooledBlocks</c> free small blocks are kept per pool.
/// </summary>
public sealed class LargeBlockMemoryPool : MemoryPool<byte>
{
    private readonly ConcurrentQueue<Block> _freeSmall = new();
    private readonly LargeBlocks _large;
    private readonly int _smallBlockBytes;
    private readonly int _maxPooledBlocks;
    private int _pooledSmall;
    private bool _disposed;

    /// <summary>
    /// A pool that takes its large blocks from <paramref name="large"/>, and past their most hands out
    /// <paramref name="smallBlockBytes"/>-byte blocks, keeping at most <paramref name="maxPooledBlocks"/> of those free.
    /// </summary>
    public LargeBlockMemoryPool(LargeBlocks large, int smallBlockBytes, int maxPooledBlocks)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(smallBlockBytes, 4096);
        ArgumentOutOfRangeException.ThrowIfLessThan(large.BlockBytes, smallBlockBytes);
        ArgumentOutOfRangeException.ThrowIfNegative(maxPooledBlocks);
        _large = large;
        _smallBlockBytes = smallBlockBytes;
        _maxPooledBlocks = maxPooledBlocks;
    }

    /// <summary>The large blocks' size: a pipe asks the pool only for this much or less, and takes larger buffers elsewhere.</summary>
    public override int MaxBufferSize => _large.BlockBytes;

    /// <summary>Free blocks kept for reuse now: the shared large ones and this pool's small ones.</summary>
    public int PooledBlocks => _large.Free + Volatile.Read(ref _pooledSmall);

    /// <summary>
    /// A whole large block while fewer than the most are rented; past that a small block, or, for a
    /// <paramref name="minBufferSize"/> larger than a small block, a large block that is not kept when it comes back.
    /// </summary>
    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minBufferSize, _large.BlockBytes);
        if (_large.TryRent(this) is { } large)
        {
            return large;
        }

        if (minBufferSize > _smallBlockBytes)
        {
            return new Block(this, BlockKind.Unpooled, _large.BlockBytes);
        }

        if (_freeSmall.TryDequeue(out var small))
        {
            Interlocked.Decrement(ref _pooledSmall);
            return small;
        }

        return new Block(this, BlockKind.Small, _smallBlockBytes);
    }

    /// <summary>Drops the free small blocks; blocks still rented are left to the GC when they come back.</summary>
    protected override void Dispose(bool disposing)
    {
        _disposed = true;
        while (_freeSmall.TryDequeue(out _))
        {
            Interlocked.Decrement(ref _pooledSmall);
        }
    }

    private void Return(Block block)
    {
        if (block.Kind == BlockKind.Large)
        {
            _large.Return(block);
        }
        else if (block.Kind == BlockKind.Small && !_disposed)
        {
            if (Interlocked.Increment(ref _pooledSmall) <= _maxPooledBlocks)
            {
                _freeSmall.Enqueue(block);
                return;
            }

            Interlocked.Decrement(ref _pooledSmall);
        }
    }

    /// <summary>
    /// The large blocks of every pool made with it: counted while rented and kept when free, so no more than
    /// <see cref="Max"/> ever exist.
    /// </summary>
    public sealed class LargeBlocks
    {
        private readonly ConcurrentQueue<Block> _free = new();
        private int _rented;

        /// <summary>At most <paramref name="max"/> blocks of <paramref name="blockBytes"/> bytes.</summary>
        public LargeBlocks(int blockBytes, int max)
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(blockBytes, 4096);
            ArgumentOutOfRangeException.ThrowIfNegative(max);
            (BlockBytes, Max) = (blockBytes, max);
        }

        /// <summary>Bytes per block.</summary>
        public int BlockBytes { get; }

        /// <summary>Most blocks that exist at once.</summary>
        public int Max { get; }

        /// <summary>Blocks rented now.</summary>
        public int Rented => Volatile.Read(ref _rented);

        internal int Free => _free.Count;

        internal Block? TryRent(LargeBlockMemoryPool pool)
        {
            if (Interlocked.Increment(ref _rented) <= Max)
            {
                return _free.TryDequeue(out var block) ? block : new Block(pool, BlockKind.Large, BlockBytes);
            }

            Interlocked.Decrement(ref _rented);
            return null;
        }

        internal void Return(Block block)
        {
            _free.Enqueue(block);
            Interlocked.Decrement(ref _rented);
        }
    }

    internal enum BlockKind { Large, Small, Unpooled }

    // A block and its owner at once: disposing it puts it back where it came from, once per rental as the pipe does.
    internal sealed class Block(LargeBlockMemoryPool pool, BlockKind kind, int bytes) : IMemoryOwner<byte>
    {
        public BlockKind Kind => kind;

        public Memory<byte> Memory { get; } = GC.AllocateUninitializedArray<byte>(bytes, pinned: true);

        public void Dispose() => pool.Return(this);
    }
}
