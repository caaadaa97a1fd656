namespace WebSerialization.Load.Reports;

/// <summary>
/// One scenario and load in a histogram log (<see cref="HistogramLog"/>): the latencies of its successful requests and
/// the counts a merge adds up besides. Repetitions and capacity steps of the same name are one entry.
/// </summary>
/// <param name="Tag">The histogram's tag: the scenario and load, e.g. <c>download-json-10000-x4</c>.</param>
/// <param name="Latency">The successful requests' latencies (from the intended start to the last byte).</param>
/// <param name="Failed">Measured requests that failed (dropped ones included), plus failed warm-up requests, as the summary's Failed.</param>
/// <param name="Dropped">Open model: requests never sent because too many were in flight (counted in <paramref name="Failed"/>).</param>
/// <param name="Late">Open model: requests sent late (their lateness is in their latency).</param>
/// <param name="BytesSent">Request body bytes of the successful requests.</param>
/// <param name="BytesReceived">Response body bytes of the successful requests.</param>
/// <param name="Elapsed">The measured phases' time, all repetitions together.</param>
public sealed record HistogramLogEntry(string Tag, LatencyHistogram Latency, long Failed, long Dropped, long Late, long BytesSent, long BytesReceived, TimeSpan Elapsed)
{
    /// <summary>Successful requests: the values in <see cref="Latency"/>.</summary>
    public long Succeeded => Latency.Count;
}
