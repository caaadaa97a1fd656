namespace WebSerialization.Load.Targets;

/// <summary>One target of the issue, what this run measured for it, and whether it was met.</summary>
/// <param name="Verdict"><c>PASS</c>, <c>MISS</c>, or <c>NOT RUN</c> when this run measured nothing to judge it by.</param>
public sealed record TargetVerdict(string Target, string Measured, string Verdict)
{
    public const string Pass = "PASS";
    public const string Miss = "MISS";
    public const string NotRun = "NOT RUN";
}
