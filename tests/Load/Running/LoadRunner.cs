namespace WebSerialization.Load.Running;

/// <summary>The runner with scenarios of one's own, NBomber's <c>NBomberRunner.RegisterScenarios(...).Run()</c>: Program.cs
/// registers them, and a run measures them beside the built-in ones when <c>--scenarios</c> names them, and in every
/// smoke run.</summary>
public sealed class LoadRunner
{
    private readonly List<LoadScenario> _registered = [];

    private LoadRunner()
    {
    }

    /// <summary>A runner that knows <paramref name="scenarios"/> besides the built-in ones.</summary>
    public static LoadRunner RegisterScenarios(params LoadScenario[] scenarios) => new LoadRunner().AndScenarios(scenarios);

    /// <summary>Registers more scenarios; a name must not repeat one already known.</summary>
    public LoadRunner AndScenarios(params LoadScenario[] scenarios)
    {
        foreach (var scenario in scenarios)
        {
            if (_registered.Any(known => known.Name == scenario.Name))
                throw new ArgumentException($"Scenario {scenario.Name} is registered twice.", nameof(scenarios));

            _registered.Add(scenario);
        }

        return this;
    }

    /// <summary>Runs with the command line's options (<c>--help</c> lists them); returns the process's exit code.</summary>
    public Task<int> RunAsync(string[] args) => LoadRun.RunAsync(args, _registered);
}
