using System.Runtime;
using WebSerialization.Models.Diagnostics;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// <c>GET /diagnostics/runtime</c>: the process's allocation, GC and working-set counters and the number of requests
/// served, for the load test (tests/Load) to measure what each request costs the server. Off unless the
/// configuration switch <c>Diagnostics:RuntimeEndpoint</c> is true: when off, neither the endpoint nor the request
/// counter exists, so the path answers 404 and requests pay nothing for it.
/// </summary>
public static class RuntimeCountersApi
{
    /// <summary>The configuration switch that turns the endpoint on.</summary>
    public const string EnabledKey = "Diagnostics:RuntimeEndpoint";

    /// <summary>When <see cref="EnabledKey"/> is true, counts every request and maps <see cref="RuntimeCounters.Path"/>.</summary>
    public static WebApplication MapRuntimeCounters(this WebApplication app)
    {
        if (!app.Configuration.GetValue<bool>(EnabledKey))
        {
            return app;
        }

        var counter = new ServedRequestCounter();
        app.Use(async (context, next) =>
        {
            try
            {
                await next(context);
            }
            finally
            {
                counter.Increment();
            }
        });

        app.MapGet(RuntimeCounters.Path, () => TypedResults.Ok(Read(counter)))
            .WithName("GetRuntimeCounters")
            .WithTags("Diagnostics")
            .WithSummary("The server's allocation, GC, working-set and request counters (only when Diagnostics:RuntimeEndpoint is true).");

        return app;
    }

    private static RuntimeCounters Read(ServedRequestCounter counter) => new(
        GC.GetTotalAllocatedBytes(precise: true),
        GC.CollectionCount(0),
        GC.CollectionCount(1),
        GC.CollectionCount(2),
        GC.GetTotalPauseDuration().TotalMilliseconds,
        Environment.WorkingSet,
        counter.Served,
        Environment.ProcessId,
        GCSettings.IsServerGC,
        Environment.ProcessorCount);
}
