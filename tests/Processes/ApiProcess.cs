using System.Diagnostics;
using System.Net;

namespace WebSerialization.Tests.Processes;

// The built API in a process of its own, for the load runner and the integration tests alike: started from an
// ApiProcessStart.Info, waited for until /healthz answers, and killed with its children when
// disposed. Every line it writes goes to one callback.
public sealed class ApiProcess : IAsyncDisposable
{
    private readonly Process _process;
    private volatile bool _addressInUse;

    private ApiProcess(ProcessStartInfo start, Uri baseAddress, Action<string> output)
    {
        BaseAddress = baseAddress;
        _process = new Process { StartInfo = start };
        void Received(string? line)
        {
            if (line is not null)
            {
                _addressInUse |= line.Contains("address already in use", StringComparison.OrdinalIgnoreCase);
                output(line);
            }
        }

        _process.OutputDataReceived += (_, line) => Received(line.Data);
        _process.ErrorDataReceived += (_, line) => Received(line.Data);
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        ProcessId = _process.Id;
    }

    public Uri BaseAddress { get; }

    public int ProcessId { get; }

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    // Starts the process (start from ApiProcessStart.Info, told to listen at baseAddress); a Win32Exception when its
    // program cannot be run. Output is called with each line it writes, from the process's reader threads.
    public static ApiProcess Start(ProcessStartInfo start, Uri baseAddress, Action<string> output)
    {
        ArgumentNullException.ThrowIfNull(start);
        ArgumentNullException.ThrowIfNull(baseAddress);
        ArgumentNullException.ThrowIfNull(output);
        return new ApiProcess(start, baseAddress, output);
    }

    // Returns once /healthz answers 200. Throws AddressInUseException when the process exited
    // because its port was taken, InvalidOperationException when it exited otherwise, and
    // TimeoutException after timeout; seeAlso ends each message.
    public Task WaitUntilHealthyAsync(TimeSpan timeout, string seeAlso, CancellationToken cancellationToken) => Healthz.WaitAsync(
        BaseAddress,
        () => _process.HasExited,
        timeout,
        () =>
        {
            var message = $"The API exited with code {_process.ExitCode} before answering /healthz; {seeAlso}";
            return _addressInUse ? new AddressInUseException(message) : new InvalidOperationException(message);
        },
        () => new TimeoutException($"The API did not answer /healthz within {timeout.TotalMinutes:0.#} minutes; {seeAlso}"),
        cancellationToken);

    /// <summary>Kills it with its children and waits up to 10 s for it to end; true when it was still running.</summary>
    public async Task<bool> StopAsync()
    {
        try
        {
            if (_process.HasExited)
            {
                return false;
            }

            _process.Kill(entireProcessTree: true);
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            await _process.WaitForExitAsync(wait.Token);
            return true;
        }
        catch (InvalidOperationException)
        {
            // It exited between the check and the kill.
            return false;
        }
    }

    /// <summary>Kills it without waiting, for an exit path that cannot wait.</summary>
    public void KillNow() => _process.KillTreeNow();

    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync();
        }
        finally
        {
            _process.Dispose();
        }
    }

    // Runs the API and waits for it to exit by itself: the exit code and everything it wrote, or null when it was
    // still running after timeout (then it is killed).
    public static async Task<(int ExitCode, string Output)?> RunUntilExitAsync(ProcessStartInfo start, TimeSpan timeout)
    {
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {start.FileName}.");
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
}

/// <summary>The API exited at start because one of its ports had been taken: worth starting again on other ports.</summary>
public sealed class AddressInUseException(string message) : InvalidOperationException(message);
