namespace WebSerialization.Load.Scenarios;

/// <summary>
/// What a scenario measures, for the reports, charts and targets that compare formats: the operation, the format, the
/// payload's members and the endpoint. The engine never reads it; a scenario without one runs and reports like any
/// other, and is left out of the per-format charts and targets.
/// </summary>
/// <param name="Baseline">True for the MVC baseline's endpoint (<c>/api/mvc/organization</c>), false for the streamed one.</param>
/// <param name="ContentEncoding">The <c>Accept-Encoding</c> a compressed download asks for and its response must carry; null for none.</param>
public sealed record ScenarioSubject(ScenarioOperation Operation, WireFormat Format, int MemberCount, bool Baseline = false, string? ContentEncoding = null)
{
    /// <summary>What a bar of a chart calls it: the format's key, with <c>stock</c> for the MVC baseline or the content encoding.</summary>
    public string Label => Baseline ? $"{Format.Key} stock" : ContentEncoding is { } encoding ? $"{Format.Key} {encoding}" : Format.Key;

    public bool IsStreamed(ScenarioOperation operation) => !Baseline && Operation == operation;
}
