namespace WebSerialization.Load.Server;

/// <summary>
/// One scrape of the server's Prometheus <c>/metrics</c>, the runner's one channel to the server's cost: the standard
/// runtime counters (<c>dotnet.gc.heap.total_allocated</c>, <c>dotnet.gc.collections</c> by generation,
/// <c>dotnet.gc.pause.time</c>, <c>dotnet.process.memory.working_set</c>, <c>dotnet.process.cpu.count</c>), ASP.NET
/// Core's count of requests served (<c>http.server.request.duration</c>'s count, the scrapes' own route left out).
/// </summary>
/// <param name="AllocatedBytes"><c>dotnet_gc_heap_total_allocated_bytes_total</c>: the runtime's approximate count.</param>
/// <param name="Collections">
/// <c>dotnet_gc_collections_total</c> by generation (<c>gen0</c>, <c>gen1</c>, <c>gen2</c>): each collection is counted once,
/// in the highest generation it collected, unlike <see cref="GC.CollectionCount"/>, which counts a gen2 in all three.
/// </param>
/// <param name="WorkingSetBytes"><c>dotnet_process_memory_working_set_bytes</c>.</param>
/// <param name="RequestsServed">
/// <c>http_server_request_duration_seconds_count</c> summed over every label set but the scrapes' (<c>http_route="/metrics"</c>):
/// requests finished, counted when the server recorded their duration. Leaving the scrapes out makes the count exact
/// whatever the order in which a scrape and its own count land.
/// </param>
/// <param name="PauseSeconds"><c>dotnet_gc_pause_time_seconds_total</c>; 0 when absent.</param>
/// <param name="ProcessorCount"><c>dotnet_process_cpu_count</c>, the processors the runtime sees; null when absent.</param>
public sealed record ServerMetrics(
    long AllocatedBytes,
    IReadOnlyDictionary<string, long> Collections,
    long WorkingSetBytes,
    long RequestsServed = 0,
    double PauseSeconds = 0,
    int? ProcessorCount = null)
{
    public const string AllocatedName = "dotnet_gc_heap_total_allocated_bytes_total";
    public const string CollectionsName = "dotnet_gc_collections_total";
    public const string WorkingSetName = "dotnet_process_memory_working_set_bytes";
    public const string RequestsName = "http_server_request_duration_seconds_count";
    public const string PauseName = "dotnet_gc_pause_time_seconds_total";
    public const string ProcessorCountName = "dotnet_process_cpu_count";

    /// <summary>The route label of the scrapes themselves, left out of <see cref="RequestsServed"/>.</summary>
    public const string ScrapeRoute = ServerMetricsClient.Path;

    /// <summary>Reads the samples the runner needs from Prometheus text exposition format; throws when one is missing.</summary>
    public static ServerMetrics Parse(string text)
    {
        long? allocated = null;
        long? workingSet = null;
        var collections = new Dictionary<string, long>(StringComparer.Ordinal);
        long requests = 0;
        double pause = 0;
        int? processors = null;
        foreach (var line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (line.StartsWith('#') || !TrySplit(line, out var name, out var labels, out var real))
            {
                continue;
            }

            var value = (long)Math.Round(real);
            switch (name)
            {
                case AllocatedName:
                    allocated = value;
                    break;
                case WorkingSetName:
                    workingSet = value;
                    break;
                case CollectionsName when Label(labels, "gc_heap_generation") is { } generation:
                    collections[generation] = value;
                    break;
                case RequestsName when Label(labels, "http_route") != ScrapeRoute:
                    requests += value;
                    break;
                case PauseName:
                    pause = real;
                    break;
                case ProcessorCountName:
                    processors = (int)value;
                    break;
            }
        }

        return new ServerMetrics(
            allocated ?? throw new FormatException($"/metrics has no {AllocatedName}."),
            collections.Count > 0 ? collections : throw new FormatException($"/metrics has no {CollectionsName}."),
            workingSet ?? throw new FormatException($"/metrics has no {WorkingSetName}."),
            requests,
            pause,
            processors);
    }

    /// <summary>Collections of <paramref name="generation"/> (<c>gen0</c>, <c>gen1</c>, <c>gen2</c>), 0 when absent.</summary>
    public long CollectionsOf(string generation) => Collections.GetValueOrDefault(generation);

    // "name{a="x",b="y"} 123" or "name 123"; the value may be written as a float ("1.5E+07").
    private static bool TrySplit(string line, out string name, out string labels, out double value)
    {
        var brace = line.IndexOf('{', StringComparison.Ordinal);
        var space = brace >= 0 ? line.IndexOf(' ', line.IndexOf('}', brace)) : line.IndexOf(' ', StringComparison.Ordinal);
        name = brace >= 0 ? line[..brace] : space >= 0 ? line[..space] : line;
        labels = brace >= 0 ? line[(brace + 1)..line.IndexOf('}', brace)] : string.Empty;
        var number = space >= 0 ? line[(space + 1)..].Split(' ')[0] : string.Empty;
        return double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out value);
    }

    private static string? Label(string labels, string key)
    {
        var start = labels.IndexOf(key + "=\"", StringComparison.Ordinal);
        if (start < 0)
        {
            return null;
        }

        start += key.Length + 2;
        var end = labels.IndexOf('"', start);
        return end < 0 ? null : labels[start..end];
    }
}
