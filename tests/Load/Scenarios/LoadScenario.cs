namespace WebSerialization.Load.Scenarios;

/// <summary>
/// A scenario as code, NBomber's <c>ScenarioProps</c>: a name and an async function of a <see cref="ScenarioContext"/>
/// that returns a <see cref="Response"/>, made by <see cref="Scenario.Create"/> and completed with the <c>With...</c>
/// methods. The engine calls <see cref="Init"/> before the warm-up, then <see cref="Run"/> once per invocation under each
/// load simulation, and records every invocation's latency, time to first byte, bytes and failure reason.
/// </summary>
/// <param name="Name">What the screen, the report files and <c>--scenarios</c> call it.</param>
public sealed record LoadScenario(string Name, Func<ScenarioContext, Task<Response>> Run)
{
    private readonly string? _description;

    /// <summary>What one invocation sends, for the reports; the name when not given.</summary>
    public string Description { get => _description ?? Name; init => _description = value; }

    /// <summary>What it measures, for the per-format reports and the targets; null for a scenario outside them.</summary>
    public ScenarioSubject? Subject { get; init; }

    /// <summary>Runs before each warm-up (NBomber's <c>WithInit</c>): fetches what the invocations need, or skips the scenario.</summary>
    public Func<ScenarioInitContext, Task>? Init { get; init; }

    /// <summary>
    /// The scenario's own load simulations; empty (the default) takes the command line's (<c>--copies</c>, <c>--rate</c>,
    /// <c>--capacity</c>). Each simulation is one measured phase with its own figures.
    /// </summary>
    public IReadOnlyList<LoadSimulation> LoadSimulations { get; init; } = [];

    /// <summary>Measured after the phases, not under load: the same payload decoded in the runner's process (<see cref="Scenarios.InProcessDecode"/>).</summary>
    public Func<CancellationToken, Task<InProcessDecode.Measurement>>? InProcessDecode { get; init; }

    public string Label => Subject?.Label ?? Name;

    /// <summary>The format's key for the summary's Format column; <c>-</c> without a subject.</summary>
    public string FormatKey => Subject?.Format.Key ?? "-";

    public LoadScenario WithInit(Func<ScenarioInitContext, Task> init) => this with { Init = init };

    public LoadScenario WithDescription(string description) => this with { Description = description };

    public LoadScenario WithSubject(ScenarioSubject subject) => this with { Subject = subject };

    public LoadScenario WithLoadSimulations(params LoadSimulation[] simulations) => this with { LoadSimulations = simulations };

    public LoadScenario WithInProcessDecode(Func<CancellationToken, Task<InProcessDecode.Measurement>> measure) => this with { InProcessDecode = measure };
}
