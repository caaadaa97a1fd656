using System.Globalization;

namespace WebSerialization.Load.Engine;

/// <summary>
/// The capacity mode's search: open-model steps from <see cref="StartRate"/> requests per second, each
/// <see cref="Factor"/> times the last, up to <see cref="MaxRate"/>, until a step misses: a failed or dropped request,
/// or a p99 latency (from each request's intended start) above <see cref="P99Bound"/>. The capacity is the highest
/// rate that passed: what a person sizing a service asks for.
/// </summary>
public sealed record CapacitySearch(double StartRate, double Factor, double MaxRate, TimeSpan P99Bound)
{
    public static CapacitySearch From(LoadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new CapacitySearch(options.RateStart, options.RateFactor, options.RateMax, options.P99Bound);
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

    /// <summary>The search's steps as open-model simulations of <paramref name="during"/> each.</summary>
    public IReadOnlyList<LoadSimulation> Simulations(TimeSpan during) =>
        [.. Rates().Select(rate => Simulation.Inject(rate, TimeSpan.FromSeconds(1), during))];

    /// <summary>Why a step misses, or null when it passes.</summary>
    public string? Judge(ScenarioResult step)
    {
        ArgumentNullException.ThrowIfNull(step);
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

    /// <summary>The search's outcome from the steps it ran.</summary>
    public CapacityResult Conclude(LoadScenario scenario, IReadOnlyList<ScenarioResult> steps)
    {
        ArgumentNullException.ThrowIfNull(steps);
        var sustained = steps.TakeWhile(step => Judge(step) is null).LastOrDefault();
        var missed = steps.FirstOrDefault(step => Judge(step) is not null);
        var stop = missed is not null
            ? string.Create(CultureInfo.InvariantCulture, $"{missed.Rate:0.#}/s: {Judge(missed)}")
            : steps.Count == 0 ? "not run" : string.Create(CultureInfo.InvariantCulture, $"reached --rate-max {MaxRate:0.#}/s");
        return new CapacityResult(scenario, steps, sustained, stop);
    }
}
