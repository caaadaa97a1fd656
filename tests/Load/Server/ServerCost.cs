namespace WebSerialization.Load.Server;

/// <summary>
/// What a scenario's measured phase cost the server, from two scrapes of its <c>/metrics</c> around the phase
/// (<see cref="ServerMetrics"/>), less what the scrapes made in between allocated themselves.
/// </summary>
/// <param name="RequestsServed">Requests the server finished in the phase (the scrapes are not among them).</param>
/// <param name="AllocatedBytes">Bytes the server allocated for them, by <c>dotnet.gc.heap.total_allocated</c>.</param>
/// <param name="Scrapes">Scrapes whose allocation fell inside the phase and was subtracted (a tail and a head make one).</param>
/// <param name="ScrapeBytes">What one scrape allocates, measured by two scrapes back to back.</param>
/// <param name="Gen0Collections">Collections that were gen0 only.</param>
/// <param name="Gen1Collections">Collections that went up to gen1.</param>
public sealed record ServerCost(
    long RequestsServed,
    long AllocatedBytes,
    long Scrapes,
    long ScrapeBytes,
    long Gen0Collections,
    long Gen1Collections,
    long Gen2Collections,
    double PauseMilliseconds)
{
    /// <summary>Allocated bytes per request served, or null when none was.</summary>
    public double? AllocatedBytesPerRequest => RequestsServed > 0 ? (double)AllocatedBytes / RequestsServed : null;

    /// <summary>The difference between two scrapes, without the <paramref name="scrapes"/> whose allocation fell between them.</summary>
    /// <param name="scrapes">Scrapes in the window: the first's tail and the last's head make one, and every scrape between.</param>
    public static ServerCost Between(ServerMetrics before, ServerMetrics after, long scrapes, long scrapeBytes) =>
        new ServerCost(
            after.RequestsServed - before.RequestsServed,
            Math.Max(0, after.AllocatedBytes - before.AllocatedBytes - (scrapes * scrapeBytes)),
            scrapes,
            scrapeBytes,
            after.CollectionsOf("gen0") - before.CollectionsOf("gen0"),
            after.CollectionsOf("gen1") - before.CollectionsOf("gen1"),
            after.CollectionsOf("gen2") - before.CollectionsOf("gen2"),
            (after.PauseSeconds - before.PauseSeconds) * 1000);
}
