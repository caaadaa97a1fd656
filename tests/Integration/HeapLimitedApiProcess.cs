using System.Collections.Concurrent;
using WebSerialization.Api.Organizations;
using WebSerialization.Tests.Processes;

namespace WebSerialization.IntegrationTests;

// The built API in a process of its own, serving a small organization with its GC heap capped below what a
// million-member organization takes: an upload or conversion that held the whole graph would run out of memory.
public sealed class HeapLimitedApiProcess : IAsyncLifetime
{
    /// <summary>The process's GC heap limit (DOTNET_GCHeapHardLimit).</summary>
    public const long HeapHardLimitBytes = 96L * 1024 * 1024;

    private ApiProcess? _process;

    public Uri BaseAddress { get; private set; } = null!;

    public HttpClient Client { get; private set; } = null!;

    /// <summary>Everything the process wrote, for a failure message.</summary>
    public ConcurrentQueue<string> Output { get; } = new();

    public bool IsRunning => _process is { HasExited: false };

    public async Task InitializeAsync()
    {
        BaseAddress = LoopbackPort.FreeAddress();
        _process = ApiProcess.Start(StartInfo(BaseAddress, memberCount: 1000), BaseAddress, Output.Enqueue);
        Client = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromMinutes(3) };
        try
        {
            await _process.WaitUntilHealthyAsync(TimeSpan.FromMinutes(1), "its output:", CancellationToken.None);
        }
        catch (Exception exception) when (exception is InvalidOperationException or TimeoutException)
        {
            Assert.Fail(exception.Message + "\n" + string.Join('\n', Output));
        }
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        if (_process is not null)
        {
            await _process.DisposeAsync();
        }
    }

    /// <summary>
    /// Starts the same process to serve an organization of <paramref name="memberCount"/> members, which it builds at
    /// start, and waits for it to exit: what a server that held a whole organization would meet in this heap.
    /// </summary>
    /// <returns>The exit code and everything the process wrote; null when it was still running after <paramref name="timeout"/> (then it is killed).</returns>
    public static Task<(int ExitCode, string Output)?> RunUntilExitAsync(int memberCount, TimeSpan timeout)
    {
        var address = LoopbackPort.FreeAddress();
        return ApiProcess.RunUntilExitAsync(StartInfo(address, memberCount), timeout);
    }

    // The API built beside these tests, as the load runner starts it, with its heap capped.
    private static ProcessStartInfo StartInfo(Uri address, int memberCount) => ApiProcessStart.Info(
        typeof(OrganizationUploadApi).Assembly.Location,
        address,
        LoopbackPort.Free(),
        memberCount,
        new Dictionary<string, string> { ["DOTNET_GCHeapHardLimit"] = HeapHardLimitBytes.ToString("X", CultureInfo.InvariantCulture) });
}
