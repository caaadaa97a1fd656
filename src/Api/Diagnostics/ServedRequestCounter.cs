namespace WebSerialization.Api.Diagnostics;

/// <summary>Counts requests as they finish (after the response body has been written), for the runtime counters.</summary>
public sealed class ServedRequestCounter
{
    private long _served;

    /// <summary>Requests finished so far.</summary>
    public long Served => Interlocked.Read(ref _served);

    /// <summary>Counts one finished request.</summary>
    public void Increment() => Interlocked.Increment(ref _served);
}
