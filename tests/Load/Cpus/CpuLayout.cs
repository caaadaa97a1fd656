namespace WebSerialization.Load.Cpus;

/// <summary>How the server the runner starts and the runner itself (the load client) use the machine's CPUs.</summary>
public enum CpuLayout
{
    /// <summary>Both run on every CPU the runner may use, as the operating system schedules them: each competes with the other.</summary>
    Shared,

    /// <summary>The server on its CPUs, the client on the others (<see cref="CpuPlan.Server"/>, <see cref="CpuPlan.Client"/>).</summary>
    Split,
}
