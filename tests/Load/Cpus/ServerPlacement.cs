using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Cpus;

/// <summary>
/// A process the runner started must run where the plan put it, and a server must see that many processors: a figure
/// measured elsewhere would be reported under the wrong CPUs. Each check throws <see cref="InvalidOperationException"/>.
/// </summary>
internal static class ServerPlacement
{
    /// <summary>Checks that <paramref name="name"/> (pid <paramref name="processId"/>) may run on exactly <paramref name="planned"/> (null: anywhere).</summary>
    public static void CheckCpus(string name, int processId, CpuSet? planned)
    {
        if (planned is not null && CpuAffinity.OfProcess(processId) is { } actual && !actual.Equals(planned))
            throw new InvalidOperationException($"{name} (pid {processId}) may run on {actual.Describe()}, not on {planned.Describe()} as planned.");
    }

    /// <summary>Checks that the server behind <paramref name="connection"/> sees as many processors as <paramref name="planned"/> has, unless the run sets DOTNET_PROCESSOR_COUNT.</summary>
    public static void CheckProcessorCount(string name, int processId, ServerConnection connection, CpuSet? planned, LoadOptions options)
    {
        if (planned is not null && connection.ProcessorCount is { } seen && seen != planned.Count && !options.ServerEnvironment.ContainsKey("DOTNET_PROCESSOR_COUNT"))
            throw new InvalidOperationException($"{name} (pid {processId}) sees {seen} processors on {planned.Describe()}.");
    }
}
