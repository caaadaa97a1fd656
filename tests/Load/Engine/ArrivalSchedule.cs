namespace WebSerialization.Load.Engine;

/// <summary>
/// When the open model's invocations fall due: <see cref="Count"/> of them, the <c>i</c>-th at <see cref="DueAt"/>(i)
/// from the phase's start. A constant rate spaces them evenly; a ramp from one rate to another spaces them so that the
/// number due by time <c>t</c> follows the rate's straight line.
/// </summary>
public sealed class ArrivalSchedule
{
    private readonly double _from;
    private readonly double _to;
    private readonly double _seconds;

    private ArrivalSchedule(double from, double to, TimeSpan during, int maxRequests)
    {
        _from = from;
        _to = to;
        _seconds = during.TotalSeconds;
        Count = (int)Math.Min(maxRequests, Math.Max(1, Math.Floor((from + to) / 2 * _seconds)));
    }

    public int Count { get; }

    /// <summary><paramref name="perSecond"/> invocations a second for <paramref name="during"/>, at most <paramref name="maxRequests"/>.</summary>
    public static ArrivalSchedule Constant(double perSecond, TimeSpan during, int maxRequests)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(perSecond);
        return new ArrivalSchedule(perSecond, perSecond, during, maxRequests);
    }

    /// <summary>A rate moving in a straight line from <paramref name="fromPerSecond"/> to <paramref name="toPerSecond"/> over <paramref name="during"/>.</summary>
    public static ArrivalSchedule Ramp(double fromPerSecond, double toPerSecond, TimeSpan during, int maxRequests)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fromPerSecond);
        ArgumentOutOfRangeException.ThrowIfNegative(toPerSecond);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(fromPerSecond + toPerSecond);
        return new ArrivalSchedule(fromPerSecond, toPerSecond, during, maxRequests);
    }

    /// <summary>When the invocation numbered <paramref name="index"/> (from 0) falls due: where the count due so far reaches it.</summary>
    public TimeSpan DueAt(int index)
    {
        // Due by time t: from*t + (to-from)*t^2/(2*seconds); solved for t where that is index.
        var slope = (_to - _from) / _seconds;
        if (Math.Abs(slope) < 1e-9)
        {
            return TimeSpan.FromSeconds(index / _from);
        }

        var seconds = (-_from + Math.Sqrt(Math.Max(0, (_from * _from) + (2 * slope * index)))) / slope;
        return TimeSpan.FromSeconds(Math.Max(0, seconds));
    }
}
