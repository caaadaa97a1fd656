using System.Diagnostics;
using System.Globalization;

namespace WebSerialization.Tests.Processes;

/// <summary>How the built API is started in a process of its own, by the load runner and by the integration tests alike.</summary>
public static class ApiProcessStart
{
    // Runs assembly (the built WebSerialization.Api.dll) with the dotnet host, listening at address (scheme, host and port)
    // and, for gRPC, on grpcPort (Grpc__Port), in the Production environment, serving an organization of memberCount
    // members (Organization__MemberCount), with environment applied last; output and errors redirected. The machine's own
    // ASPNETCORE_URLS and ASPNETCORE_HTTP_PORTS are dropped so that only address is listened on. Given cpus, it is started
    // under taskset -c, so that the runtime reads its affinity at start-up and sizes the GC and the thread pool to it, and
    // DOTNET_PROCESSOR_COUNT says the same (environment may still override it).
    public static ProcessStartInfo Info(string assembly, Uri address, int grpcPort, int memberCount, IReadOnlyDictionary<string, string> environment, CpuSet? cpus = null)
    {
        ArgumentNullException.ThrowIfNull(address);
        ArgumentNullException.ThrowIfNull(environment);

        // taskset execs dotnet in its own process: the pid started is the server's.
        string[] api = [DotnetHost.Path, assembly, "--urls", address.GetLeftPart(UriPartial.Authority)];
        var start = cpus is null
            ? new ProcessStartInfo(api[0], api[1..])
            : new ProcessStartInfo(TasksetPath, ["-c", cpus.ToString(), .. api]);
        start.WorkingDirectory = Path.GetDirectoryName(assembly)!;
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        if (cpus is not null)
        {
            start.Environment["DOTNET_PROCESSOR_COUNT"] = cpus.Count.ToString(CultureInfo.InvariantCulture);
        }

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
