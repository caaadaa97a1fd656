using System.Diagnostics;
using System.Globalization;

namespace WebSerialization.Tests.Processes;

/// <summary>How the built API is started in a process of its own, by the load runner and by the integration tests alike.</summary>
public static class ApiProcessStart
{
    /// <summary>
    /// Runs <paramref name="assembly"/> (the built WebSerialization.Api.dll) with the <c>dotnet</c> host, listening at
    /// <paramref name="address"/> and, for gRPC, on <paramref name="grpcPort"/>, in the Production environment, serving
    /// an organization of <paramref name="memberCount"/> members; output and errors redirected. The machine's own
    /// <c>ASPNETCORE_URLS</c> and <c>ASPNETCORE_HTTP_PORTS</c> are dropped so that only <paramref name="address"/> is
    /// listened on.
    /// </summary>
    /// <param name="assembly">The path of WebSerialization.Api.dll.</param>
    /// <param name="address">Where it listens (scheme, host and port).</param>
    /// <param name="grpcPort">Its gRPC (h2c) port (Grpc__Port).</param>
    /// <param name="memberCount">The organization's member count (Organization__MemberCount).</param>
    /// <param name="environment">More environment variables, applied last.</param>
    /// <param name="cpus">
    /// The CPUs it may run on, or null for any. It is started under <c>taskset -c</c>, so that the runtime reads its
    /// affinity at start-up and sizes the GC and the thread pool to it, and <c>DOTNET_PROCESSOR_COUNT</c> says the same
    /// (<paramref name="environment"/> may still override it).
    /// </param>
    public static ProcessStartInfo Info(string assembly, Uri address, int grpcPort, int memberCount, IReadOnlyDictionary<string, string> environment, CpuSet? cpus = null)
    {
        ArgumentNullException.ThrowIfNull(address);
        ArgumentNullException.ThrowIfNull(environment);
        var start = new ProcessStartInfo(cpus is null ? DotnetHost.Path : TasksetPath)
        {
            WorkingDirectory = Path.GetDirectoryName(assembly)!,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (cpus is not null)
        {
            // taskset execs dotnet in its own process: the pid started is the server's.
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add(cpus.ToString());
            start.ArgumentList.Add(DotnetHost.Path);
            start.Environment["DOTNET_PROCESSOR_COUNT"] = cpus.Count.ToString(CultureInfo.InvariantCulture);
        }

        start.ArgumentList.Add(assembly);
        start.ArgumentList.Add("--urls");
        start.ArgumentList.Add(address.GetLeftPart(UriPartial.Authority));
        start.Environment.Remove("ASPNETCORE_URLS");
        start.Environment.Remove("ASPNETCORE_HTTP_PORTS");
        start.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        start.Environment["Organization__MemberCount"] = memberCount.ToString(CultureInfo.InvariantCulture);
        start.Environment["Grpc__Port"] = grpcPort.ToString(CultureInfo.InvariantCulture);
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        return start;
    }

    /// <summary>util-linux's taskset, which sets a CPU affinity and then runs the command in the same process.</summary>
    public const string TasksetPath = "taskset";
}
