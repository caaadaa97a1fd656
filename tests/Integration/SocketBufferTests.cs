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
        Assert.Equal(64 * 1024, large.MaxBufferSize);
    }

    [Fact]
    public void RentHandsOutWholeBlocksAndReusesReturnedOnes()
    {
        using var pool = new LargeBlockMemoryPool(blockBytes: 8192, maxPooledBlocks: 4);

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
    public void KeepsAtMostMaxPooledBlocksAndRefusesLargerRequests()
    {
        using var pool = new LargeBlockMemoryPool(blockBytes: 4096, maxPooledBlocks: 2);
        var rented = Enumerable.Range(0, 5).Select(_ => pool.Rent()).ToList();

        rented.ForEach(block => block.Dispose());

        Assert.Equal(2, pool.PooledBlocks);
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(4097));
        Assert.Throws<ArgumentOutOfRangeException>(() => new LargeBlockMemoryPool(blockBytes: 1024, maxPooledBlocks: 2));
    }
}
