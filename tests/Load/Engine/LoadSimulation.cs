namespace WebSerialization.Load.Engine;

/// <summary>
/// How a scenario is loaded during one measured phase, NBomber's <c>LoadSimulation</c>: the closed model
/// (<see cref="KeepConstant"/>) or the open model (<see cref="Inject"/>, <see cref="RampingInject"/>). The capacity search
/// is a sequence of <see cref="Inject"/> phases (<see cref="CapacitySearch"/>). Made by <see cref="Simulation"/>.
/// </summary>
/// <param name="During">How long invocations start (the closed model) or fall due (the open model).</param>
public abstract record LoadSimulation(TimeSpan During)
{
    /// <summary><paramref name="Copies"/> loops side by side, each invoking the scenario again as soon as its last invocation ended.</summary>
    public sealed record KeepConstant(int Copies, TimeSpan During) : LoadSimulation(During);

    /// <summary><paramref name="Rate"/> invocations per <paramref name="Interval"/>, evenly spaced, whatever the server is doing.</summary>
    public sealed record Inject(double Rate, TimeSpan Interval, TimeSpan During) : LoadSimulation(During)
    {
        public override double? PerSecond => Rate / Interval.TotalSeconds;
    }

    /// <summary>
    /// The open model with a rate that moves in a straight line from the previous simulation's rate (0 for the first)
    /// to <paramref name="Rate"/> per <paramref name="Interval"/> over the phase.
    /// </summary>
    public sealed record RampingInject(double Rate, TimeSpan Interval, TimeSpan During) : LoadSimulation(During)
    {
        public override double? PerSecond => Rate / Interval.TotalSeconds;
    }

    /// <summary>The open model's (final) rate in invocations per second; null for the closed model.</summary>
    public virtual double? PerSecond => null;

    /// <summary>Copies of the closed model; 1 for the open model, whose warm-up runs one copy.</summary>
    public int CopiesOrOne => this is KeepConstant keep ? keep.Copies : 1;

    /// <summary>The load in the reports' words: <c>copies 4</c>, <c>250 requests/s</c>, <c>ramping to 250 requests/s</c>.</summary>
    public string Describe() => this switch
    {
        KeepConstant keep => string.Create(CultureInfo.InvariantCulture, $"copies {keep.Copies}"),
        RampingInject => string.Create(CultureInfo.InvariantCulture, $"ramping to {PerSecond:0.#} requests/s"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{PerSecond:0.#} requests/s"),
    };
}

/// <summary>NBomber's <c>Simulation</c>: the load simulations by name.</summary>
public static class Simulation
{
    public static LoadSimulation KeepConstant(int copies, TimeSpan during)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(copies);
        return new LoadSimulation.KeepConstant(copies, during);
    }

    public static LoadSimulation Inject(double rate, TimeSpan interval, TimeSpan during)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rate);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(interval, TimeSpan.Zero);
        return new LoadSimulation.Inject(rate, interval, during);
    }

    public static LoadSimulation RampingInject(double rate, TimeSpan interval, TimeSpan during)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(rate);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(interval, TimeSpan.Zero);
        return new LoadSimulation.RampingInject(rate, interval, during);
    }
}
