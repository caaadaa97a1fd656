namespace WebSerialization.Load.Engine;

/// <param name="Duration">From the step's start to its response.</param>
/// <param name="SizeBytes">Bytes its response received.</param>
public readonly record struct StepSample(string Name, TimeSpan Duration, long SizeBytes, long BytesSent, string? Error)
{
    public bool Succeeded => Error is null;
}
