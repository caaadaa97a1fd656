namespace WebSerialization.Load.Server;

/// <summary>Samples the server's working set every 250 ms while a scenario runs and keeps the largest reading.</summary>
public sealed class PeakWorkingSetWatch
{
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(250);

    private readonly WorkingSetProbe _probe;
    private readonly CancellationTokenSource _stop;
    private readonly Task _sampling;
    private long _peak;

    private PeakWorkingSetWatch(WorkingSetProbe probe, long first, CancellationToken cancellationToken)
    {
        _probe = probe;
        _peak = first;
        AtStart = first;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _sampling = SampleAsync(_stop.Token);
    }

    public long AtStart { get; }

    public static async Task<PeakWorkingSetWatch> StartAsync(WorkingSetProbe probe, CancellationToken cancellationToken)
    {
        probe.ResetPeak();
        var first = await probe.ReadAsync(cancellationToken);
        return new PeakWorkingSetWatch(probe, first, cancellationToken);
    }

    /// <summary>Stops sampling and returns the peak: the kernel's where it has one, else the largest sample.</summary>
    public async Task<long> StopAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await _sampling;
        }
        catch (OperationCanceledException)
        {
            // Stopping is what cancels the sampling loop.
        }

        _stop.Dispose();
        var last = await _probe.ReadAsync(CancellationToken.None);
        return Math.Max(Math.Max(_peak, last), _probe.ReadKernelPeak() ?? 0);
    }

    private async Task SampleAsync(CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(Interval);
        while (await timer.WaitForNextTickAsync(cancellationToken))
        {
            _peak = Math.Max(_peak, await _probe.ReadAsync(cancellationToken));
        }
    }
}
