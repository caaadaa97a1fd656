namespace WebSerialization.Load.Server;

/// <summary>
/// Reads the server's working set. When the runner started the server it reads <c>/proc/&lt;pid&gt;/status</c>, which
/// costs the server nothing, and resets the kernel's peak (VmHWM, via <c>clear_refs</c>) at the start of each
/// scenario, so the peak is exact rather than sampled. Otherwise it scrapes <c>/metrics</c> (<c>dotnet.process.memory.working_set</c>).
/// </summary>
public sealed class WorkingSetProbe
{
    private const string ResetPeakResidentSetSize = "5";

    private readonly int? _processId;
    private readonly ServerMetricsClient _metrics;
    private bool _kernelPeakReset;

    private WorkingSetProbe(int? processId, ServerMetricsClient metrics)
    {
        _processId = processId;
        _metrics = metrics;
    }

    public static WorkingSetProbe ForLocalProcess(int processId, ServerMetricsClient metrics) => new(processId, metrics);

    public static WorkingSetProbe ThroughMetrics(ServerMetricsClient metrics) => new(null, metrics);

    public string PeakMethod => _processId is null
        ? "largest of /metrics dotnet_process_memory_working_set_bytes polled every 250 ms"
        : _kernelPeakReset ? "kernel peak RSS (VmHWM, reset per scenario) and VmRSS every 250 ms"
        : "largest VmRSS read every 250 ms (VmHWM could not be reset)";

    public async Task<long> ReadAsync(CancellationToken cancellationToken) => _processId is { } pid
        ? ReadStatusKilobytes(pid, "VmRSS:") * 1024
        : (await _metrics.ReadAsync(cancellationToken)).WorkingSetBytes;

    /// <summary>Starts a new peak: resets the kernel's high-water mark where it can.</summary>
    public void ResetPeak()
    {
        if (_processId is not { } pid)
        {
            return;
        }

        try
        {
            File.WriteAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/clear_refs", ResetPeakResidentSetSize);
            _kernelPeakReset = true;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            _kernelPeakReset = false;
        }
    }

    /// <summary>The kernel's peak since <see cref="ResetPeak"/>, or null when it could not be reset.</summary>
    public long? ReadKernelPeak() => _processId is { } pid && _kernelPeakReset
        ? ReadStatusKilobytes(pid, "VmHWM:") * 1024
        : null;

    private static long ReadStatusKilobytes(int processId, string field)
    {
        foreach (var line in File.ReadLines($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/status"))
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
            {
                var value = line.AsSpan(field.Length).Trim();
                return long.Parse(value[..value.IndexOf(' ')], NumberStyles.None, CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"/proc/{processId}/status has no {field} line.");
    }
}
