namespace WebSerialization.Benchmarks.Reporting;

/// <summary>One target's verdict (PASS, MISS or SKIP), what was measured, and for a miss what stands in the way.</summary>
public sealed record TargetResult(string Verdict, string Text, string? Obstacle = null)
{
    public override string ToString() => $"{Verdict} {Text}";
}
