using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;

namespace WebSerialization.Tests.Processes;

/// <summary>A process of the scale-out topology (a replica, HAProxy, Prometheus, a load runner): started, its output kept, stopped with a signal.</summary>
public sealed class ScaleOutProcess : IAsyncDisposable
{
    // What Output keeps of a process whose lines also go to a callback: enough to say why it stopped.
    private const int TailLines = 50;

    private readonly Process _process;
    private readonly Action<string>? _output;

    private ScaleOutProcess(string name, Process process, Action<string>? output)
    {
        Name = name;
        _process = process;
        _output = output;
        _process.OutputDataReceived += (_, e) => Collect(e.Data);
        _process.ErrorDataReceived += (_, e) => Collect(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public string Name { get; }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>Every line it wrote, stdout and stderr together; when started with an output callback, which gets every line, the last 50.</summary>
    public ConcurrentQueue<string> Output { get; } = new();

    /// <summary>Starts <paramref name="start"/> (its output must be redirected); <paramref name="output"/>, when given, gets each line from the reader threads.</summary>
    public static ScaleOutProcess Start(string name, ProcessStartInfo start, Action<string>? output = null)
    {
        ArgumentNullException.ThrowIfNull(start);
        return new(name, Process.Start(start) ?? throw new InvalidOperationException($"Could not start {start.FileName}."), output);
    }

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

    /// <summary>Kills it with its children, at once, for an exit path that cannot wait.</summary>
    public void KillNow() => _process.KillTreeNow();

    public async ValueTask DisposeAsync()
    {
        KillNow();
        await _process.WaitForExitAsync();
        _process.Dispose();
    }

    private void Collect(string? line)
    {
        if (line is null)
        {
            return;
        }

        Output.Enqueue(line);
        if (_output is not null)
        {
            _output(line);
            while (Output.Count > TailLines)
            {
                Output.TryDequeue(out _);
            }
        }
    }
}
