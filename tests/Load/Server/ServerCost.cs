using WebSerialization.Models.Diagnostics;

namespace WebSerialization.Load.Server;

/// <summary>
/// What a scenario's measured phase cost the server, from its runtime counters read before and after the phase,
/// less the calls to the counters endpoint made in between.
/// </summary>
/// <param name="RequestsServed">Load requests the server finished in the phase (its count, diagnostics calls removed).</param>
/// <param name="AllocatedBytes">Bytes the server allocated for them.</param>
/// <param name="DiagnosticsCalls">Counter reads that fell inside the phase and were subtracted.</param>
/// <param name="DiagnosticsCallBytes">What one counter read allocates, measured by two reads back to back.</param>
/// <param name="Gen0Collections">GCs of each generation during the phase.</param>
/// <param name="Gen1Collections">Gen1 GCs (gen2 ones included).</param>
/// <param name="Gen2Collections">Full GCs.</param>
/// <param name="PauseMilliseconds">GC pause time during the phase.</param>
public sealed record ServerCost(
    long RequestsServed,
    long AllocatedBytes,
    long DiagnosticsCalls,
    long DiagnosticsCallBytes,
    int Gen0Collections,
    int Gen1Collections,
    int Gen2Collections,
    double PauseMilliseconds)
{
    /// <summary>The same phase by the server's standard metrics (<c>/metrics</c>); null when the server does not publish them.</summary>
    public ServerMetricsCost? Metrics { get; init; }

    /// <summary>Allocated bytes per request served by the standard counter, or null.</summary>
    public double? MetricsAllocatedBytesPerRequest => RequestsServed > 0 && Metrics is { } metrics ? (double)metrics.AllocatedBytes / RequestsServed : null;

    /// <summary>True when the standard allocation counter is more than <see cref="ServerMetricsCost.AgreementBound"/> from the precise one.</summary>
    public bool MetricsDisagree => Metrics?.DifferenceFrom(AllocatedBytes) is > ServerMetricsCost.AgreementBound;

    /// <summary>Allocated bytes per request served, or null when none was.</summary>
    public double? AllocatedBytesPerRequest => RequestsServed > 0 ? (double)AllocatedBytes / RequestsServed : null;

    /// <summary>The difference between two readings, without the <paramref name="diagnosticsCalls"/> made between them.</summary>
    /// <param name="before">The reading at the start of the window.</param>
    /// <param name="after">The reading at its end.</param>
    /// <param name="diagnosticsCalls">Counter reads in the window (a head and a tail make one).</param>
    /// <param name="diagnosticsCallBytes">What one counter read allocates.</param>
    /// <param name="otherCalls">Other diagnostics requests in the window (<c>/metrics</c> scrapes).</param>
    /// <param name="otherCallBytes">What those allocated altogether.</param>
    public static ServerCost Between(RuntimeCounters before, RuntimeCounters after, long diagnosticsCalls, long diagnosticsCallBytes, long otherCalls = 0, long otherCallBytes = 0)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        return new ServerCost(
            after.RequestsServed - before.RequestsServed - diagnosticsCalls - otherCalls,
            Math.Max(0, after.TotalAllocatedBytes - before.TotalAllocatedBytes - (diagnosticsCalls * diagnosticsCallBytes) - otherCallBytes),
            diagnosticsCalls,
            diagnosticsCallBytes,
            after.Gen0Collections - before.Gen0Collections,
            after.Gen1Collections - before.Gen1Collections,
            after.Gen2Collections - before.Gen2Collections,
            after.TotalPauseDurationMilliseconds - before.TotalPauseDurationMilliseconds);
    }
}
