namespace WebSerialization.Models.Diagnostics;

/// <summary>
/// One reading of the server process's runtime counters, as <c>GET /diagnostics/runtime</c> returns it. Every
/// counter is process-wide and cumulative since the process started (except <see cref="WorkingSetBytes"/>), so a
/// load test reads it before and after a run and divides the difference by the requests served in between. The server
/// (src/Api) writes it and the load runner (tests/Load) reads it, so both take it from here.
/// </summary>
/// <param name="TotalAllocatedBytes">Bytes allocated on the managed heap by every thread, precisely counted.</param>
/// <param name="Gen0Collections">Generation 0 collections (each collection of a higher generation counts here too).</param>
/// <param name="Gen1Collections">Generation 1 collections (gen2 collections count here too).</param>
/// <param name="Gen2Collections">Full (generation 2) collections.</param>
/// <param name="TotalPauseDurationMilliseconds">Time the GC has paused the process.</param>
/// <param name="WorkingSetBytes">Physical memory the process uses now.</param>
/// <param name="RequestsServed">Requests finished, including the calls to this endpoint itself.</param>
/// <param name="ProcessId">The process id, so a load runner on the same machine can read <c>/proc/&lt;pid&gt;</c>.</param>
/// <param name="IsServerGC">Whether the server GC is in use; it changes what the working set looks like.</param>
/// <param name="ProcessorCount">Processors the runtime sees.</param>
public sealed record RuntimeCounters(
    long TotalAllocatedBytes,
    int Gen0Collections,
    int Gen1Collections,
    int Gen2Collections,
    double TotalPauseDurationMilliseconds,
    long WorkingSetBytes,
    long RequestsServed,
    int ProcessId,
    bool IsServerGC,
    int ProcessorCount)
{
    /// <summary>The endpoint's path; it answers 404 unless the server's <c>Diagnostics:RuntimeEndpoint</c> switch is true.</summary>
    public const string Path = "/diagnostics/runtime";
}
