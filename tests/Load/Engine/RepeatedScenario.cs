namespace WebSerialization.Load.Engine;

/// <summary>
/// A scenario at one number of copies with every repetition of it (one unless <c>--repeat</c>), and what the summary,
/// the charts and the targets judge it by: <see cref="Figures"/>, the median over the repetitions. One server process
/// keeps the JIT-compiled code it settled on for its whole life, and two processes of the same build can differ by a
/// third in latency, so one repetition is one draw; the median of several, with their <see cref="P50Spread"/>, is
/// the measurement.
/// </summary>
public sealed record RepeatedScenario(LoadScenario Scenario, int Copies, IReadOnlyList<ScenarioResult> Repetitions)
{
    /// <summary>The file name (without extension) of the scenario's reports, shared by its repetitions.</summary>
    public string ReportName => Repetitions[0].ReportName;

    /// <summary>Ran when any repetition ran; Skipped when every one was; otherwise CouldNotRun.</summary>
    public ScenarioOutcome Outcome =>
        Repetitions.Any(repetition => repetition.Outcome == ScenarioOutcome.Ran) ? ScenarioOutcome.Ran
        : Repetitions.All(repetition => repetition.Outcome == ScenarioOutcome.Skipped) ? ScenarioOutcome.Skipped
        : ScenarioOutcome.CouldNotRun;

    /// <summary>True when the scenario ran more than once, so that its reports show the spread and every repetition.</summary>
    public bool IsRepeated => Repetitions.Count > 1;

    public ScenarioFigures Figures => ScenarioFigures.Aggregate(Repetitions);

    /// <summary>The load as the comparison tables name it: the arrival rate of the open model ("100/s"), else the copies ("x4").</summary>
    public string Load => Repetitions[0].Rate is { } rate
        ? string.Create(CultureInfo.InvariantCulture, $"{rate:0.#}/s")
        : string.Create(CultureInfo.InvariantCulture, $"x{Copies}");

    /// <summary>The lowest and highest p50 latency of the repetitions; null when none measured one.</summary>
    public Spread? P50Spread => Spread.Of(Repetitions.Select(repetition => repetition.Latency?.P50));

    /// <summary>True when any repetition has a failure (see <see cref="ScenarioResult.HasFailures"/>).</summary>
    public bool HasFailures => Repetitions.Any(repetition => repetition.HasFailures);

    /// <summary>The results grouped by scenario, load, CPU layout and route, in the order each first appears; repetitions in their order.</summary>
    public static IReadOnlyList<RepeatedScenario> Group(IEnumerable<ScenarioResult> results) =>
        [.. results
            .GroupBy(result => (result.Scenario.Name, result.Copies, result.Rate, result.Layout, result.Route))
            .Select(group => new RepeatedScenario(group.First().Scenario, group.Key.Copies, [.. group.OrderBy(result => result.Repetition)]))];

    /// <summary>A repetition's name in lists of failures: the scenario's, with the repetition when there are several.</summary>
    public string NameOf(ScenarioResult repetition) => IsRepeated ? $"{ReportName} (repetition {repetition.Repetition})" : ReportName;
}
