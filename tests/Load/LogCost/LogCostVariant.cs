namespace WebSerialization.Load.LogCost;

/// <summary>
/// One of the servers the log-cost mode runs side by side: the same Release build in Production with its own logging
/// settings, as environment variables over the image's defaults. Metrics and the runtime endpoint are off in all of
/// them, as in Production, so that logging is the only difference.
/// </summary>
public sealed record LogCostVariant(string Name, string Description, IReadOnlyDictionary<string, string> Environment)
{
    /// <summary>The request log's category, whose level turns the access line on and off.</summary>
    public const string RequestLogCategory = "WebSerialization.Api.Diagnostics.RequestLogMiddleware";

    private static readonly Dictionary<string, string> ProductionDiagnostics = new()
    {
        ["Metrics__Enabled"] = "false",
    };

    /// <summary>The image's settings as they are.</summary>
    public static LogCostVariant ProductionDefaults { get; } = new("production", "Production defaults", ProductionDiagnostics);

    /// <summary>Every category at None: what the request costs with nothing logged at all.</summary>
    public static LogCostVariant LoggingOff { get; } = new("logging-off", "logging off (every category None)", With(new()
    {
        ["Logging__LogLevel__Default"] = "None",
        ["Logging__LogLevel__Microsoft.AspNetCore"] = "None",
        [$"Logging__LogLevel__{RequestLogCategory}"] = "None",
    }));

    /// <summary>The opt-in access line, one per request.</summary>
    public static LogCostVariant AccessLogOn { get; } = new("access-log", "access log on (request log at Information)", With(new()
    {
        [$"Logging__LogLevel__{RequestLogCategory}"] = "Information",
    }));

    /// <summary>The servers, in the order of the first round.</summary>
    public static IReadOnlyList<LogCostVariant> All { get; } = [ProductionDefaults, LoggingOff, AccessLogOn];

    /// <summary>The settings as NAME=VALUE, for the report.</summary>
    public string Settings => string.Join(", ", Environment.Select(pair => $"{pair.Key}={pair.Value}"));

    /// <summary>
    /// The order of round <paramref name="round"/> (from 1): odd rounds forwards, even rounds backwards, so that no server
    /// always runs first (after an idle pause) or last (after the others warmed the caches and the CPU clock).
    /// </summary>
    public static IReadOnlyList<T> InRoundOrder<T>(IReadOnlyList<T> servers, int round)
    {
        ArgumentNullException.ThrowIfNull(servers);
        return round % 2 == 1 ? servers : [.. servers.Reverse()];
    }

    private static Dictionary<string, string> With(Dictionary<string, string> logging)
    {
        foreach (var (name, value) in ProductionDiagnostics)
        {
            logging[name] = value;
        }

        return logging;
    }
}
