namespace WebSerialization.Api.Transport;

/// <summary>Configuration section <c>SocketBuffers</c>: the blocks Kestrel receives into and sends from.</summary>
public sealed class SocketBufferOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "SocketBuffers";

    /// <summary>
    /// Bytes per block, and so the most one socket receive reads. 0 keeps Kestrel's own pool (4 KB blocks), which is
    /// how to measure what the larger blocks are worth (docs/performance.md, "Socket buffers").
    /// </summary>
    public int BlockBytes { get; set; } = 64 * 1024;

    /// <summary>Most free blocks the pool keeps for reuse; a block returned beyond that is left to the GC.</summary>
    public int MaxPooledBlocks { get; set; } = 256;
}
