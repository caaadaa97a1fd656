namespace WebSerialization.Api.Transport;

/// <summary>Configuration section <c>SocketBuffers</c>: the blocks Kestrel receives into and sends from.</summary>
public sealed class SocketBufferOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "SocketBuffers";

    /// <summary>
    /// Bytes per large block, and so the most one socket receive reads. 0 keeps Kestrel's own pool (4 KB blocks), which
    /// is how to measure what the larger blocks are worth (docs/performance.md, "Socket buffers").
    /// </summary>
    public int BlockBytes { get; set; } = 1024 * 1024;

    /// <summary>Most large blocks that exist at once; past that, connections get small blocks.</summary>
    public int MaxLargeBlocks { get; set; } = 32;

    /// <summary>Bytes per small block, handed out once <see cref="MaxLargeBlocks"/> are rented.</summary>
    public int SmallBlockBytes { get; set; } = 64 * 1024;

    /// <summary>Most free small blocks the pool keeps for reuse; one returned beyond that is left to the GC.</summary>
    public int MaxPooledBlocks { get; set; } = 256;
}
