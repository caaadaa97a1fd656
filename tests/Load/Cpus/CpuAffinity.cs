using System.Diagnostics;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Cpus;

/// <summary>
/// The CPUs a process may run on, read from Linux's <c>/proc/PID/status</c> and set with util-linux's <c>taskset</c>.
/// Elsewhere there is nothing to read and nothing is pinned.
/// </summary>
public static class CpuAffinity
{
    public static bool IsSupported => OperatingSystem.IsLinux() && File.Exists("/proc/self/status");

    /// <summary>
    /// Held while a thread of this process moves itself between CPUs (<see cref="Server.CpuSpeedWatch"/>) and while
    /// <see cref="PinThisProcessAsync"/> pins and checks every thread, so that neither undoes or trips over the other.
    /// </summary>
    internal static SemaphoreSlim Changing { get; } = new(1, 1);

    /// <summary>The CPUs the process's main thread may run on (its <c>Cpus_allowed_list</c>); null when unknown.</summary>
    public static CpuSet? OfProcess(int processId) => Read($"/proc/{processId}/status");

    /// <summary>The CPUs each thread of the process may run on, one entry per thread still running.</summary>
    public static IReadOnlyList<CpuSet> OfThreads(int processId)
    {
        try
        {
            return [.. Directory.EnumerateDirectories($"/proc/{processId}/task").Select(task => Read(Path.Combine(task, "status"))).OfType<CpuSet>()];
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    /// <summary>
    /// Pins every thread of this process to <paramref name="cpus"/> (<c>taskset -a -p -c</c>): on Linux an affinity is a
    /// thread's, and a thread inherits its creator's, so threads started afterwards stay on them too. Throws
    /// <see cref="InvalidOperationException"/> when taskset fails or some thread is left elsewhere.
    /// </summary>
    public static async Task PinThisProcessAsync(CpuSet cpus, CancellationToken cancellationToken)
    {
        await Changing.WaitAsync(cancellationToken);
        try
        {
            await PinAndCheckAsync(cpus, cancellationToken);
        }
        finally
        {
            Changing.Release();
        }
    }

    private static async Task PinAndCheckAsync(CpuSet cpus, CancellationToken cancellationToken)
    {
        // taskset -a lists the threads, then sets each one's affinity: a thread that ends in between fails the whole
        // command with "No such process" after the others were set, so it is run again.
        const int Attempts = 5;
        for (var attempt = 1; ; attempt++)
        {
            var (exitCode, error) = await RunTasksetAsync(["-a", "-p", "-c", cpus.ToString(), Environment.ProcessId.ToString(CultureInfo.InvariantCulture)], cancellationToken);
            if (exitCode == 0)
            {
                break;
            }

            if (attempt == Attempts || !error.Contains("No such process", StringComparison.Ordinal))
            {
                throw new InvalidOperationException($"taskset -a -p -c {cpus} failed (exit code {exitCode}): {error.Trim()}");
            }
        }

        var elsewhere = OfThreads(Environment.ProcessId).Where(threadCpus => !threadCpus.Equals(cpus)).ToArray();
        if (elsewhere.Length > 0)
        {
            throw new InvalidOperationException($"After taskset, {elsewhere.Length} of this process's threads may still run on {elsewhere[0].Describe()}, not only on {cpus.Describe()}.");
        }
    }

    private static async Task<(int ExitCode, string Error)> RunTasksetAsync(IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(ApiProcessStart.TasksetPath, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };

        Process taskset;
        try
        {
            taskset = Process.Start(start) ?? throw new InvalidOperationException("Cannot run taskset.");
        }
        catch (System.ComponentModel.Win32Exception exception)
        {
            throw new InvalidOperationException($"Cannot run taskset ({exception.Message}): install util-linux, or pass --cpu-layout shared.", exception);
        }

        using (taskset)
        {
            var error = taskset.StandardError.ReadToEndAsync(cancellationToken);
            _ = await taskset.StandardOutput.ReadToEndAsync(cancellationToken);
            await taskset.WaitForExitAsync(cancellationToken);
            return (taskset.ExitCode, await error);
        }
    }

    /// <summary>The CPU time (user and system) a process has used so far; null when it cannot be read (gone, or not ours to see).</summary>
    public static TimeSpan? CpuTime(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return process.TotalProcessorTime;
        }
        catch (Exception exception) when (exception is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            return null;
        }
    }

    private static CpuSet? Read(string statusPath)
    {
        try
        {
            const string Key = "Cpus_allowed_list:";
            var line = File.Exists(statusPath) ? File.ReadLines(statusPath).FirstOrDefault(line => line.StartsWith(Key, StringComparison.Ordinal)) : null;
            return line is null ? null : CpuSet.Parse(line[Key.Length..].Trim());
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ArgumentException)
        {
            // The process or thread ended while it was read.
            return null;
        }
    }
}
