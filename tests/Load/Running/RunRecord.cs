namespace WebSerialization.Load.Running;

/// <summary>What a run has measured so far, and how it ended: the reports are written from this even when it stopped early.</summary>
internal sealed class RunRecord(RunDescription run)
{
    public RunDescription Run { get; set; } = run;

    public List<ScenarioResult> Results { get; } = [];

    public List<CapacityResult> Capacities { get; } = [];

    /// <summary>Why the run stopped before its end, or null when it did not.</summary>
    public string? Ending { get; set; }

    /// <summary>Non-zero when the run stopped before its end.</summary>
    public int ExitCode { get; set; }
}
