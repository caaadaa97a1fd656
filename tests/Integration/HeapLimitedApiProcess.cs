using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using WebSerialization.Api.Organizations;
using WebSerialization.IntegrationTests.Docker;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// The built API in a process of its own whose GC heap is capped at <see cref="HeapHardLimitBytes"/>, serving a small
/// organization: far too little heap to build a million-member organization (about 255 MB), so any upload or
/// conversion that held the whole graph would fail there with an OutOfMemoryException.
/// </summary>
public sealed class HeapLimitedApiProcess : IAsyncLifetime
{
    /// <summary>The process's GC heap limit (DOTNET_GCHeapHardLimit).</summary>
    public const long HeapHardLimitBytes = 96L * 1024 * 1024;

    private Process? _process;

    /// <summary>Where the process listens.</summary>
    public Uri BaseAddress { get; private set; } = null!;

    /// <summary>A client pointed at <see cref="BaseAddress"/>.</summary>
    public HttpClient Client { get; private set; } = null!;

    /// <summary>Everything the process wrote, for a failure message.</summary>
    public ConcurrentQueue<string> Output { get; } = new();

    /// <summary>Whether the process is still running.</summary>
    public bool IsRunning => _process is { HasExited: false };

    public async Task InitializeAsync()
    {
        var port = FreeLoopbackPort();
        BaseAddress = new Uri($"http://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}");
        _process = Process.Start(StartInfo(BaseAddress, memberCount: 1000))!;
        _process.OutputDataReceived += (_, e) => Collect(e.Data);
        _process.ErrorDataReceived += (_, e) => Collect(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        Client = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromMinutes(3) };

        var waited = Stopwatch.StartNew();
        while (true)
        {
            Assert.True(IsRunning, "The API exited before it answered /healthz:\n" + string.Join('\n', Output));
            Assert.True(waited.Elapsed < TimeSpan.FromMinutes(1), "The API did not answer /healthz within a minute:\n" + string.Join('\n', Output));
            try
            {
                using var health = await Client.GetAsync("/healthz");
                if (health.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            await Task.Delay(100);
        }
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        if (_process is not null)
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                await _process.WaitForExitAsync();
            }

            _process.Dispose();
        }
    }

    /// <summary>
    /// Starts the same process to serve an organization of <paramref name="memberCount"/> members, which it builds at
    /// start, and waits for it to exit: what a server that held a whole organization would meet in this heap.
    /// </summary>
    /// <returns>The exit code and everything the process wrote; null when it was still running after <paramref name="timeout"/> (then it is killed).</returns>
    public static async Task<(int ExitCode, string Output)?> RunUntilExitAsync(int memberCount, TimeSpan timeout)
    {
        var address = new Uri($"http://127.0.0.1:{FreeLoopbackPort().ToString(CultureInfo.InvariantCulture)}");
        using var process = Process.Start(StartInfo(address, memberCount))!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
            return null;
        }

        return (process.ExitCode, await output + await error);
    }

    private static ProcessStartInfo StartInfo(Uri address, int memberCount)
    {
        var assembly = typeof(OrganizationUploadApi).Assembly.Location;
        var start = new ProcessStartInfo(DotnetHost.Path)
        {
            WorkingDirectory = Path.GetDirectoryName(assembly)!,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.ArgumentList.Add(assembly);
        start.ArgumentList.Add("--urls");
        start.ArgumentList.Add(address.GetLeftPart(UriPartial.Authority));
        start.Environment.Remove("ASPNETCORE_URLS");
        start.Environment.Remove("ASPNETCORE_HTTP_PORTS");
        start.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        start.Environment["DOTNET_GCHeapHardLimit"] = HeapHardLimitBytes.ToString("X", CultureInfo.InvariantCulture);
        start.Environment["Organization__MemberCount"] = memberCount.ToString(CultureInfo.InvariantCulture);
        start.Environment["Grpc__Port"] = FreeLoopbackPort().ToString(CultureInfo.InvariantCulture);
        return start;
    }

    private static int FreeLoopbackPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private void Collect(string? line)
    {
        if (line is not null)
        {
            Output.Enqueue(line);
        }
    }
}
