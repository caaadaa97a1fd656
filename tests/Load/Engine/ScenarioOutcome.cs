namespace WebSerialization.Load.Engine;

/// <summary>How a scenario ended.</summary>
public enum ScenarioOutcome
{
    /// <summary>It ran (some of its requests may still have failed).</summary>
    Ran,

    /// <summary>Its endpoint is not on this server (404 or 405): not run, not a failure.</summary>
    Skipped,

    /// <summary>It could not run (e.g. its payload could not be downloaded): a failure.</summary>
    CouldNotRun,
}
