using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;
using WebSerialization.Api.Transport;

namespace WebSerialization.IntegrationTests;

/// <summary>The blocks Kestrel receives into: <see cref="LargeBlockMemoryPool"/> by default, Kestrel's own when switched off.</summary>
[Collection(ApiCollection.Name)]
public sealed class SocketBufferTests(ApiServer server)
{
    [Fact]
    public void KestrelsPoolsAreLargeBlockPoolsOfTheConfiguredSize()
    {
        using var pool = server.Services.GetRequiredService<IMemoryPoolFactory<byte>>().Create();

        var large = Assert.IsType<LargeBlockMemoryPool>(pool);
        Assert.Equal(1024 * 1024, large.MaxBufferSize);
        using var block = large.Rent();
        Assert.Equal(1024 * 1024, block.Memory.Length);
    }

    [Fact]
    public void RentHandsOutWholeBlocksAndReusesReturnedOnes()
    {
        using var pool = new LargeBlockMemoryPool(new(blockBytes: 8192, max: 4), smallBlockBytes: 4096, maxPooledBlocks: 4);

        var first = pool.Rent(100);
        Assert.Equal(8192, first.Memory.Length);
        Assert.Equal(8192, pool.Rent().Memory.Length);
        first.Dispose();

        Assert.Equal(1, pool.PooledBlocks);
        using var again = pool.Rent(8192);
        Assert.Same(first, again);
        Assert.Equal(0, pool.PooledBlocks);
    }

    [Fact]
    public void PastTheMostLargeBlocksHandsOutSmallOnesAndNeverMoreLargeOnes()
    {
        var shared = new LargeBlockMemoryPool.LargeBlocks(blockBytes: 8192, max: 2);
        using var pool = new LargeBlockMemoryPool(shared, smallBlockBytes: 4096, maxPooledBlocks: 4);
        using var other = new LargeBlockMemoryPool(shared, smallBlockBytes: 4096, maxPooledBlocks: 4);
        var large = new[] { pool.Rent(), other.Rent() };

        var small = pool.Rent(4096);
        var unpooled = other.Rent(4097);

        Assert.All(large, block => Assert.Equal(8192, block.Memory.Length));
        Assert.Equal(4096, small.Memory.Length);
        Assert.Equal(8192, unpooled.Memory.Length);
        Assert.Equal(2, shared.Rented);
        unpooled.Dispose();
        Assert.Equal((2, 0), (shared.Rented, pool.PooledBlocks));
        small.Dispose();
        large[1].Dispose();
        Assert.Equal((1, 2), (shared.Rented, pool.PooledBlocks));
        using var reused = pool.Rent();
        Assert.Same(large[1], reused);
    }

    [Fact]
    public void KeepsAtMostMaxPooledSmallBlocksAndRefusesLargerRequests()
    {
        using var pool = new LargeBlockMemoryPool(new(blockBytes: 8192, max: 0), smallBlockBytes: 4096, maxPooledBlocks: 2);
        var rented = Enumerable.Range(0, 5).Select(_ => pool.Rent()).ToList();

        rented.ForEach(block => block.Dispose());

        Assert.All(rented, block => Assert.Equal(4096, block.Memory.Length));
        Assert.Equal(2, pool.PooledBlocks);
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(8193));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LargeBlockMemoryPool(new(8192, 1), smallBlockBytes: 1024, maxPooledBlocks: 2));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LargeBlockMemoryPool(new(4096, 1), smallBlockBytes: 8192, maxPooledBlocks: 2));
    }
}
