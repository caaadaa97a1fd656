namespace WebSerialization.Api.Limits;

/// <summary>
/// Configuration section <c>Limits</c>, its heavy-request part: how many heavy requests (uploads, conversions, gRPC
/// calls, large downloads) run at once, per client and in all, and how slow or long one may be.
/// </summary>
public sealed class HeavyRequestOptions
{
    /// <summary>
    /// Heavy requests (uploads, and downloads of more than <see cref="HeavyDownloadMembers"/> members) served at once;
    /// more get 429. Each holds about a chunk of memory; eight CPU-bound requests already share 2 cores four ways.
    /// </summary>
    public int MaxConcurrentHeavyRequests { get; set; } = 8;

    /// <summary>
    /// Heavy requests one client (one remote address, or one IPv6 /64) may hold at once, out of
    /// <see cref="MaxConcurrentHeavyRequests"/>; its next gets 429. A few connections from one place cannot take every slot.
    /// </summary>
    public int MaxHeavyRequestsPerClient { get; set; } = 2;

    /// <summary>
    /// Slowest a heavy request's body may arrive, or its answer be read, in bytes per second averaged by Kestrel after
    /// <see cref="MinDataRateGraceSeconds"/>; slower, the connection is cut and its slot freed. 64 KiB/s is half a
    /// 1 Mbit/s link, and 64 times a client that dribbles 1 KB/s.
    /// </summary>
    public int MinDataRateBytesPerSecond { get; set; } = 64 * 1024;

    /// <summary>How long a body or an answer may run below <see cref="MinDataRateBytesPerSecond"/> before it counts: TCP's slow start and a short stall.</summary>
    public double MinDataRateGraceSeconds { get; set; } = 10;

    /// <summary>
    /// Longest a heavy request may hold its slot, whatever its rate: the largest body (a million members as JSON,
    /// 158 MB) in 15 minutes needs 176 KB/s, a 1.4 Mbit/s link; binary needs 24 KB/s. Then the connection is cut.
    /// </summary>
    public double MaxHeavyRequestSeconds { get; set; } = 900;

    /// <summary>
    /// Addresses of reverse proxies whose <c>X-Forwarded-For</c> names the client; empty (the default) trusts no one,
    /// since a header any client can write must not pick its partition.
    /// </summary>
    public string[] TrustedProxies { get; set; } = [];

    /// <summary>A download of more members than this counts as heavy.</summary>
    public int HeavyDownloadMembers { get; set; } = 100_000;

    /// <summary>The Retry-After a rejected heavy request is given, in seconds.</summary>
    public int RetryAfterSeconds { get; set; } = 2;
}
