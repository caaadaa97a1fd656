namespace WebSerialization.Load.Engine;

/// <summary>Running totals of one phase, updated by every request and read by the progress display.</summary>
public sealed class PhaseProgress
{
    private long _succeeded;
    private long _failed;
    private long _bytes;

    public long Succeeded => Interlocked.Read(ref _succeeded);

    public long Failed => Interlocked.Read(ref _failed);

    /// <summary>Bytes sent plus bytes received.</summary>
    public long Bytes => Interlocked.Read(ref _bytes);

    /// <summary>Latency (from the intended start) of the successful requests so far.</summary>
    public LatencyHistogram Latency { get; } = new();

    public void Record(in RequestSample sample)
    {
        Interlocked.Increment(ref sample.Succeeded ? ref _succeeded : ref _failed);
        Interlocked.Add(ref _bytes, sample.BytesSent + sample.BytesReceived);
        if (sample.Succeeded)
        {
            Latency.Record(sample.Latency);
        }
    }
}
