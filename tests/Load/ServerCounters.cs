namespace WebSerialization.Load;

/// <summary>One reading of the server's <c>GET /diagnostics/runtime</c> (src/Api/Diagnostics/RuntimeCounters.cs).</summary>
public sealed record ServerCounters(
    long TotalAllocatedBytes,
    int Gen0Collections,
    int Gen1Collections,
    int Gen2Collections,
    double TotalPauseDurationMilliseconds,
    long WorkingSetBytes,
    long RequestsServed,
    int ProcessId,
    bool IsServerGC,
    int ProcessorCount);
