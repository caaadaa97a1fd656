namespace WebSerialization.Load;

/// <summary>Running totals of one phase, updated by every copy and read by the progress printer.</summary>
public sealed class PhaseProgress
{
    private long _succeeded;
    private long _failed;
    private long _bytes;

    public long Succeeded => Interlocked.Read(ref _succeeded);

    public long Failed => Interlocked.Read(ref _failed);

    /// <summary>Bytes sent plus bytes received.</summary>
    public long Bytes => Interlocked.Read(ref _bytes);

    public void Record(in RequestSample sample)
    {
        Interlocked.Increment(ref sample.Succeeded ? ref _succeeded : ref _failed);
        Interlocked.Add(ref _bytes, sample.BytesSent + sample.BytesReceived);
    }
}
