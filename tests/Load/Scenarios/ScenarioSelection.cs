namespace WebSerialization.Load.Scenarios;

/// <summary>Which scenarios a run measures, from its options and the scenarios registered in code.</summary>
public static class ScenarioSelection
{
    /// <summary>
    /// Every scenario the options select, in run order: downloads, uploads, converts, gRPC calls, small payloads first;
    /// then the MVC baseline, the compressed downloads and the <paramref name="registered"/> ones, which run only when <c>--scenarios</c> names
    /// them (the default run measures the built-in ones), and every registered one in the smoke, so that it is known to run.
    /// </summary>
    public static IReadOnlyList<LoadScenario> Select(LoadOptions options, IReadOnlyList<LoadScenario>? registered = null)
    {
        registered ??= [];
        var counts = options.MemberCounts.Order().ToArray();
        var all = new List<LoadScenario>();
        all.AddRange(counts.SelectMany(count => WireFormat.All.Select(format => HttpScenarios.Download(format, count))));
        all.AddRange(counts.SelectMany(count => WireFormat.All.Select(format => HttpScenarios.Upload(format, count))));
        all.AddRange(counts.SelectMany(count => WireFormat.All.Where(format => format != WireFormat.Json).Select(format => HttpScenarios.Convert(format, count))));
        all.AddRange(GrpcScenarios.Select(counts));

        if (options.Smoke)
        {
            // The smoke's one large scenario: JSON flushes most often (300 times a million members), so a cost per
            // flush shows there first, and at 10,000 members it is lost in the rounding.
            all.RemoveAll(scenario => scenario.Subject!.MemberCount > LoadOptions.SmokeMemberCount
                && !(scenario.Subject.IsStreamed(ScenarioOperation.Download) && scenario.Subject.Format == WireFormat.Json));
            all.AddRange(registered);
        }

        if (options.ScenarioFilters.Count == 0)
        {
            return all;
        }

        all.AddRange(BaselineScenarios.For(counts));
        all.AddRange(CompressedDownloads.For(counts));
        if (!options.Smoke)
        {
            all.AddRange(registered);
        }

        return [.. all.Where(scenario => options.ScenarioFilters.Any(filter => scenario.Name.StartsWith(filter, StringComparison.OrdinalIgnoreCase)))];
    }
}
