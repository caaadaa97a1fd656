using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;

namespace WebSerialization.IntegrationTests.ScaleOut;

/// <summary>A process of the topology (a replica, HAProxy, Prometheus, a load runner): started, its output kept, stopped with a signal.</summary>
public sealed class ScaleOutProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ScaleOutProcess(string name, Process process)
    {
        Name = name;
        _process = process;
        _process.OutputDataReceived += (_, e) => Collect(e.Data);
        _process.ErrorDataReceived += (_, e) => Collect(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public string Name { get; }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>Every line it wrote, stdout and stderr together.</summary>
    public ConcurrentQueue<string> Output { get; } = new();

    /// <summary>Starts <paramref name="start"/> (its output must be redirected).</summary>
    public static ScaleOutProcess Start(string name, ProcessStartInfo start) => new(name, Process.Start(start)!);

    /// <summary>Sends SIGTERM, as an orchestrator's stop does.</summary>
    public async Task TerminateAsync()
    {
        using var kill = Process.Start("kill", ["-TERM", Id.ToString(CultureInfo.InvariantCulture)]);
        await kill.WaitForExitAsync();
    }

    /// <summary>Waits up to <paramref name="timeout"/> for the process to exit; false if it has not.</summary>
    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        using var limit = new CancellationTokenSource(timeout);
        return await _process.WaitForExitAsync(limit.Token).ContinueWith(wait => wait.IsCompletedSuccessfully, TaskScheduler.Default);
    }

    /// <summary>Its resident memory now, in bytes (VmRSS).</summary>
    public long ResidentBytes() => 1024 * long.Parse(
        File.ReadLines($"/proc/{Id}/status").First(line => line.StartsWith("VmRSS:", StringComparison.Ordinal)).Split(' ', StringSplitOptions.RemoveEmptyEntries)[1],
        CultureInfo.InvariantCulture);

    public string Transcript() => $"{Name} (pid {Id}):\n" + string.Join('\n', Output);

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private void Collect(string? line)
    {
        if (line is not null)
        {
            Output.Enqueue(line);
        }
    }
}
