namespace WebSerialization.Load.Scenarios;

/// <summary>
/// Where a scenario starts, as in NBomber: <c>Scenario.Create("name", async context =&gt; { ...; return Response.Ok(sizeBytes: n); })</c>.
/// The function is one invocation; every copy (closed model) or arrival (open model) calls it, and the engine
/// measures each call from its intended start to its return.
/// </summary>
public static class Scenario
{
    /// <summary>A scenario named <paramref name="name"/> (what <c>--scenarios</c> selects by prefix) that runs <paramref name="run"/>.</summary>
    public static LoadScenario Create(string name, Func<ScenarioContext, Task<Response>> run)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return new LoadScenario(name, run);
    }
}
