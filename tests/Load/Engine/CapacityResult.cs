namespace WebSerialization.Load.Engine;

/// <summary>One scenario's capacity search: every step, the last one that passed, and why the search stopped.</summary>
/// <param name="Steps">Every open-model step, in order (the first also carries the warm-up).</param>
/// <param name="Sustained">The highest-rate step that passed (every step before it passed too); null when the first missed.</param>
/// <param name="Stop">Why the search ended: the step that missed and how, or the rate limit.</param>
public sealed record CapacityResult(LoadScenario Scenario, IReadOnlyList<ScenarioResult> Steps, ScenarioResult? Sustained, string Stop)
{
    /// <summary>The highest rate sustained, in requests per second; 0 when none was.</summary>
    public double SustainedRate => Sustained?.Rate ?? 0;

    /// <summary>Where the server and the client ran during the search (its steps' layout).</summary>
    public CpuLayout Layout => Steps.Count > 0 ? Steps[0].Layout : CpuLayout.Shared;
}
