namespace WebSerialization.Load.Server;

/// <summary>
/// What a measured phase cost the server by its standard metrics (two <c>/metrics</c> scrapes around the phase), less
/// the scrapes' own allocation and the runtime-counter reads made in between.
/// </summary>
/// <param name="AllocatedBytes">By <c>dotnet.gc.heap.total_allocated</c>, which the runtime keeps approximately.</param>
/// <param name="Gen0Collections">Collections that were gen0 only.</param>
/// <param name="Gen1Collections">Collections that went up to gen1.</param>
/// <param name="Gen2Collections">Full collections.</param>
/// <param name="WorkingSetBytes">The working set at the end of the phase.</param>
public sealed record ServerMetricsCost(long AllocatedBytes, long Gen0Collections, long Gen1Collections, long Gen2Collections, long WorkingSetBytes)
{
    /// <summary>
    /// The standard allocation counter may lag the precise one (it leaves out what threads have reserved but not used);
    /// beyond this fraction of the precise figure per request, the reports say the two differ.
    /// </summary>
    public const double AgreementBound = 0.05;

    /// <summary>
    /// The difference between two scrapes: the first ended a pair that measured <paramref name="scrapeBytes"/>, and the
    /// window between them holds one scrape's worth (the first's tail and the second's head) and
    /// <paramref name="otherReadBytes"/> of other diagnostics reads.
    /// </summary>
    public static ServerMetricsCost Between(ServerMetrics before, ServerMetrics after, long scrapeBytes, long otherReadBytes)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        return new ServerMetricsCost(
            Math.Max(0, after.AllocatedBytes - before.AllocatedBytes - scrapeBytes - otherReadBytes),
            after.CollectionsOf("gen0") - before.CollectionsOf("gen0"),
            after.CollectionsOf("gen1") - before.CollectionsOf("gen1"),
            after.CollectionsOf("gen2") - before.CollectionsOf("gen2"),
            after.WorkingSetBytes);
    }

    /// <summary>
    /// How far the standard figure is from <paramref name="preciseBytes"/> (<c>GC.GetTotalAllocatedBytes(precise: true)</c>
    /// over the same requests), as a fraction of the precise one; null when the precise one is 0.
    /// </summary>
    public double? DifferenceFrom(long preciseBytes) =>
        preciseBytes > 0 ? Math.Abs(AllocatedBytes - preciseBytes) / (double)preciseBytes : null;
}
