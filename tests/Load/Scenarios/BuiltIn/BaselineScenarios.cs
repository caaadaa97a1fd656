using WebSerialization.Models.Baseline;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The scenarios of the MVC baseline (<c>/api/mvc/organization</c>, stock formatters): a download and an upload per
/// format that has a stock formatter (JSON, MessagePack, protobuf), named <c>baseline-download-json-10000</c> and so
/// on, and run only when <c>--scenarios</c> names them, so that they can be measured beside the streamed ones.
/// </summary>
public static class BaselineScenarios
{
    public const string Prefix = "baseline-";

    /// <summary>The server setting that maps the baseline (off in Production, which is how the runner starts the API).</summary>
    public const string ServerSwitch = "Baseline__Enabled";

    /// <summary>The baseline's download and upload of each format, for each of <paramref name="counts"/> (in order): downloads first.</summary>
    public static IEnumerable<LoadScenario> For(IReadOnlyList<int> counts) =>
        from create in new Func<WireFormat, int, bool, LoadScenario>[] { HttpScenarios.Download, HttpScenarios.Upload }
        from count in counts
        from format in BaselineContract.Sent.Keys
        select create(format, count, true);

    /// <summary>
    /// <paramref name="options"/> with <see cref="ServerSwitch"/> on for the server the runner starts, when any of
    /// <paramref name="scenarios"/> is a baseline one. The streamed scenarios of that run then share the same server.
    /// </summary>
    public static LoadOptions SwitchOn(LoadOptions options, IReadOnlyList<LoadScenario> scenarios) =>
        options.Url is not null || !scenarios.Any(scenario => scenario.Subject?.Baseline == true)
            ? options
            : options with { ServerEnvironment = new Dictionary<string, string>(options.ServerEnvironment, StringComparer.Ordinal) { [ServerSwitch] = "true" } };
}
