using System.Collections.Concurrent;
using System.Diagnostics;

namespace WebSerialization.IntegrationTests.ScaleOut;

/// <summary>A process of the topology (a replica, HAProxy, Prometheus): started, its output kept, stopped with a signal.</summary>
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

    /// <summary>What the process is, for messages.</summary>
    public string Name { get; }

    /// <summary>Its process id.</summary>
    public int Id => _process.Id;

    /// <summary>Whether it has exited.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Its exit code, once it has exited.</summary>
    public int ExitCode => _process.ExitCode;

    /// <summary>Every line it wrote, stdout and stderr together.</summary>
    public ConcurrentQueue<string> Output { get; } = new();

    /// <summary>Starts <paramref name="start"/> (its output must be redirected).</summary>
    public static ScaleOutProcess Start(string name, ProcessStartInfo start) => new(name, Process.Start(start)!);

    /// <summary>Sends SIGTERM, as an orchestrator's stop does.</summary>
    public async Task TerminateAsync()
    {
        using var kill = Process.Start("kill", ["-TERM", Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        await kill.WaitForExitAsync();
    }

    /// <summary>Waits up to <paramref name="timeout"/> for the process to exit; false if it has not.</summary>
    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        using var limit = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(limit.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Its resident memory now, in bytes (VmRSS).</summary>
    public long ResidentBytes()
    {
        var line = File.ReadLines($"/proc/{Id}/status").First(line => line.StartsWith("VmRSS:", StringComparison.Ordinal));
        return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], System.Globalization.CultureInfo.InvariantCulture) * 1024;
    }

    /// <summary>Its output, for an assertion's message.</summary>
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
