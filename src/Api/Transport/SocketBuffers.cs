using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.Options;

namespace WebSerialization.Api.Transport;

/// <summary>
/// Gives Kestrel's connections <see cref="LargeBlockMemoryPool"/> through ASP.NET Core's memory pool factory, unless
/// <c>SocketBuffers:BlockBytes</c> is 0.
/// </summary>
public static class SocketBuffers
{
    /// <summary>Registers the pool factory that Kestrel's transports create their pools from.</summary>
    public static IServiceCollection AddSocketBuffers(this IServiceCollection services, IConfiguration configuration)
    {
        var section = configuration.GetSection(SocketBufferOptions.Section);
        services.Configure<SocketBufferOptions>(section);
        if (section.Get<SocketBufferOptions>() is not { BlockBytes: 0 })
        {
            // Registered after Kestrel's own, so this is the one the transports resolve.
            services.AddSingleton<IMemoryPoolFactory<byte>, LargeBlockMemoryPoolFactory>();
        }

        return services;
    }

    // One set of large blocks for every pool Kestrel makes (a pool per I/O queue), so their most holds for the process.
    private sealed class LargeBlockMemoryPoolFactory(IOptions<SocketBufferOptions> options) : IMemoryPoolFactory<byte>
    {
        private readonly LargeBlockMemoryPool.LargeBlocks _large = new(options.Value.BlockBytes, options.Value.MaxLargeBlocks);

        public System.Buffers.MemoryPool<byte> Create(MemoryPoolOptions? poolOptions = null) =>
            new LargeBlockMemoryPool(_large, options.Value.SmallBlockBytes, options.Value.MaxPooledBlocks);
    }
}
