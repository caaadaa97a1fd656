namespace WebSerialization.Load.Engine;

/// <summary>
/// Order statistics of one measure over a scenario's samples, in milliseconds, read from a
/// <see cref="LatencyHistogram"/>: within 0.1 % of the recorded values.
/// </summary>
public sealed record LatencyDistribution(int Count, double Min, double Mean, double P50, double P95, double P99, double Max);
