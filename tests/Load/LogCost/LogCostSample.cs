namespace WebSerialization.Load.LogCost;

/// <summary>One server's share of one round: the requests it answered, the CPU time it used, the bytes it wrote to stdout and stderr.</summary>
public sealed record LogCostSample(string Variant, int Round, long Requests, long Failed, TimeSpan ServerCpu, long LogBytes, TimeSpan Elapsed)
{
    /// <summary>Server CPU time per answered request, in microseconds; NaN without requests.</summary>
    public double CpuMicrosecondsPerRequest => Requests == 0 ? double.NaN : ServerCpu.TotalMicroseconds / Requests;

    /// <summary>Log bytes per answered request; NaN without requests.</summary>
    public double LogBytesPerRequest => Requests == 0 ? double.NaN : LogBytes / (double)Requests;

    public double RequestsPerSecond => Requests / Elapsed.TotalSeconds;
}

/// <summary>
/// The mixed load on one server: what it served and what it wrote to stdout and stderr meanwhile, and how many lines
/// the console logger dropped because its queue was full (it says so in a line of its own when it next writes).
/// </summary>
public sealed record LogVolumeSample(string Variant, TimeSpan Duration, long Downloads, long HeavyRequests, long Failed, long LogBytes, long LogLines, long DroppedLines)
{
    /// <summary>The window: the volume target is per 5 minutes of this load.</summary>
    public static readonly TimeSpan Window = TimeSpan.FromMinutes(5);

    /// <summary>The bytes written, scaled to <see cref="Window"/> (the same rate for 5 minutes).</summary>
    public double BytesPerWindow => LogBytes * (Window / Duration);
}
