namespace WebSerialization.Load.Engine;

/// <summary>
/// The capacity mode's search: open-model steps from <see cref="StartRate"/> requests per second, each
/// <see cref="Factor"/> times the last, up to <see cref="MaxRate"/>, until a rate misses <see cref="Attempts"/> times
/// in a row: a failed or dropped request, or a p99 latency (from each request's intended start) above
/// <see cref="P99Bound"/>. A missed step is run again because one short step's p99 moves with whatever else the machine
/// does; a rate passes when one of its runs does. The capacity is the highest rate that passed: what a person sizing a
/// service asks for.
/// </summary>
public sealed record CapacitySearch(double StartRate, double Factor, double MaxRate, TimeSpan P99Bound, int Attempts = 1)
{
    public static CapacitySearch From(LoadOptions options) =>
        new CapacitySearch(options.RateStart, options.RateFactor, options.RateMax, options.P99Bound, options.StepAttempts);

    /// <summary>
    /// The rates to run, decided as the search goes: each of <see cref="Rates"/> until one passes or has missed
    /// <see cref="Attempts"/> times. <paramref name="ran"/> is the list the caller adds each step to before asking for the next.
    /// </summary>
    public IEnumerable<double> Plan(IReadOnlyList<ScenarioResult> ran)
    {
        foreach (var rate in Rates())
        {
            for (var attempt = 1; ; attempt++)
            {
                yield return rate;
                if (ran.Count == 0 || Judge(ran[^1]) is null)
                {
                    break;
                }

                if (attempt >= Attempts)
                {
                    yield break;
                }
            }
        }
    }

    /// <summary>The rates to try, in order, rounded to whole requests per second.</summary>
    public IEnumerable<double> Rates()
    {
        var last = 0.0;
        for (var rate = StartRate; rate <= MaxRate * (1 + 1e-9); rate *= Factor)
        {
            var whole = Math.Max(1, Math.Round(rate, MidpointRounding.AwayFromZero));
            if (whole > last)
            {
                last = whole;
                yield return whole;
            }
        }
    }

    /// <summary>The search's steps (see <see cref="Plan"/>) as open-model simulations of <paramref name="during"/> each.</summary>
    public IEnumerable<LoadSimulation> Simulations(IReadOnlyList<ScenarioResult> ran, TimeSpan during) =>
        Plan(ran).Select(rate => Simulation.Inject(rate, TimeSpan.FromSeconds(1), during));

    /// <summary>Why a step misses, or null when it passes.</summary>
    public string? Judge(ScenarioResult step)
    {
        if (step.Outcome != ScenarioOutcome.Ran)
        {
            return step.Note ?? step.Outcome.ToString();
        }

        if (step.FailureReasons.FirstOrDefault() is { Error: not null } reason)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{step.FailedCount} failed ({reason.Error})");
        }

        var p99 = step.Latency?.P99;
        return p99 is null ? "no request succeeded"
            : p99 > P99Bound.TotalMilliseconds ? string.Create(CultureInfo.InvariantCulture, $"p99 {p99:0.0} ms > {P99Bound.TotalMilliseconds:0} ms")
            : null;
    }

    public CapacityResult Conclude(LoadScenario scenario, IReadOnlyList<ScenarioResult> steps)
    {
        ScenarioResult? sustained = null;
        string? stop = null;
        foreach (var rate in steps.GroupBy(step => step.Rate))
        {
            if (rate.FirstOrDefault(step => Judge(step) is null) is { } passed)
            {
                sustained = passed;
                continue;
            }

            var misses = rate.Select(Judge).ToArray();
            var again = misses.Length > 1 ? $" (and on {misses.Length - 1} more run{(misses.Length > 2 ? "s" : string.Empty)}: {string.Join("; ", misses.Skip(1))})" : string.Empty;
            stop = string.Create(CultureInfo.InvariantCulture, $"{rate.Key:0.#}/s: {misses[0]}{again}");
            break;
        }

        stop ??= steps.Count == 0 ? "not run" : string.Create(CultureInfo.InvariantCulture, $"reached --rate-max {MaxRate:0.#}/s");
        return new CapacityResult(scenario, steps, sustained, stop);
    }
}
