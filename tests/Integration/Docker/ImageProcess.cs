using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using WebSerialization.Tests.Processes;

namespace WebSerialization.IntegrationTests.Docker;

/// <summary>
/// The replayed image's entry point running as a process, the way <c>docker run</c> would start it: in the image's
/// working directory, with the image's environment (plus what a test overrides) and none of this machine's
/// ASP.NET Core settings. Collects what it writes, and stops it the way <c>docker stop</c> does, with SIGTERM.
/// </summary>
public sealed class ImageProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ImageProcess(Process process, Uri baseAddress)
    {
        _process = process;
        BaseAddress = baseAddress;
        Client = new HttpClient { BaseAddress = baseAddress, Timeout = TimeSpan.FromMinutes(2) };
        _process.OutputDataReceived += (_, e) => Collect(Output, e.Data);
        _process.ErrorDataReceived += (_, e) => Collect(Errors, e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>Where the app listens, e.g. http://127.0.0.1:8080.</summary>
    public Uri BaseAddress { get; }

    /// <summary>An HttpClient pointed at <see cref="BaseAddress"/>.</summary>
    public HttpClient Client { get; }

    /// <summary>Every line the app wrote to stdout.</summary>
    public ConcurrentQueue<string> Output { get; } = new();

    /// <summary>Every line the app wrote to stderr.</summary>
    public ConcurrentQueue<string> Errors { get; } = new();

    /// <summary>The process's exit code, once it has exited.</summary>
    public int ExitCode => _process.ExitCode;

    /// <summary>Starts the entry point with the image's environment, <paramref name="overrides"/> on top.</summary>
    public static ImageProcess Start(ReplayedImage image, int port, IReadOnlyDictionary<string, string> overrides)
    {
        Assert.True(image.Entrypoint.Count > 0, "The image has no ENTRYPOINT.");
        var start = new ProcessStartInfo(image.Entrypoint[0] == "dotnet" ? DotnetHost.Path : image.Entrypoint[0])
        {
            WorkingDirectory = image.WorkingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in image.Entrypoint.Skip(1))
        {
            start.ArgumentList.Add(argument);
        }

        // A container starts with the image's environment only: drop this machine's ASP.NET Core and .NET host
        // settings and configuration overrides (Section__Key) that would otherwise leak into the app.
        foreach (var key in start.Environment.Keys.ToArray())
        {
            if (key.StartsWith("ASPNETCORE_", StringComparison.OrdinalIgnoreCase) || key.Contains("__", StringComparison.Ordinal)
                || key.Equals("DOTNET_ENVIRONMENT", StringComparison.OrdinalIgnoreCase) || key.Equals("URLS", StringComparison.OrdinalIgnoreCase))
            {
                start.Environment.Remove(key);
            }
        }

        foreach (var (key, value) in image.Environment.Concat(overrides))
        {
            start.Environment[key] = value;
        }

        return new ImageProcess(Process.Start(start)!, new Uri($"http://127.0.0.1:{port}"));
    }

    /// <summary>8080 when nothing on this machine listens there (the image's port), otherwise a free one.</summary>
    public static int PortLike(int imagePort)
    {
        try
        {
            using var probe = new Socket(AddressFamily.InterNetworkV6, SocketType.Stream, ProtocolType.Tcp) { DualMode = true };
            probe.Bind(new IPEndPoint(IPAddress.IPv6Any, imagePort));
            return imagePort;
        }
        catch (SocketException)
        {
            return LoopbackPort.Free();
        }
    }

    /// <summary>Waits until <c>/healthz</c> answers 200, failing with the app's output if it exits or takes over 2 minutes.</summary>
    public async Task WaitUntilHealthyAsync()
    {
        var stopwatch = Stopwatch.StartNew();
        while (true)
        {
            Assert.False(_process.HasExited, $"The app exited with code {(_process.HasExited ? _process.ExitCode : 0)} before it was healthy:\n{Transcript()}");
            try
            {
                using var response = await Client.GetAsync("/healthz");
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet: the organization is still being generated.
            }

            Assert.True(stopwatch.Elapsed < TimeSpan.FromMinutes(2), $"The app was not healthy within 2 minutes:\n{Transcript()}");
            await Task.Delay(200);
        }
    }

    /// <summary>Sends SIGTERM, as <c>docker stop</c> does to the container's PID 1.</summary>
    public void Terminate()
    {
        // .NET has no API that sends a signal to another process; kill(1) is on every Linux machine and image.
        using var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
        Assert.Equal(0, kill.ExitCode);
    }

    /// <summary>Waits for the process to exit; false when <paramref name="timeout"/> passes first.</summary>
    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        using var cancellation = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cancellation.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>The stdout lines that are JSON log entries (the Production console format), parsed.</summary>
    public IReadOnlyList<JsonElement> LogEntries() =>
        [.. Output.Where(line => line.StartsWith('{')).Select(line => JsonDocument.Parse(line).RootElement.Clone())];

    /// <summary>Everything the app wrote, for failure messages.</summary>
    public string Transcript() => string.Join('\n', Output.Concat(Errors.Select(line => "stderr: " + line)));

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private static void Collect(ConcurrentQueue<string> lines, string? line)
    {
        if (line is not null)
        {
            lines.Enqueue(line);
        }
    }
}
