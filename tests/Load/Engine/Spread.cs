namespace WebSerialization.Load.Engine;

/// <summary>The lowest and the highest of one figure over a scenario's repetitions.</summary>
public readonly record struct Spread(double Low, double High)
{
    /// <summary>The spread of the values that are there; null when none is.</summary>
    public static Spread? Of(IEnumerable<double?> values)
    {
        var present = values.OfType<double>().ToArray();
        return present.Length == 0 ? null : new Spread(present.Min(), present.Max());
    }

    /// <summary><c>61-91</c>, each end in <paramref name="format"/>, in the invariant culture.</summary>
    public string ToString(string format) =>
        $"{Low.ToString(format, CultureInfo.InvariantCulture)}-{High.ToString(format, CultureInfo.InvariantCulture)}";
}
