using System.Diagnostics;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Server;

/// <summary>
/// The API in its own process, as the load runner starts it: the Release build, on a free 127.0.0.1 port, in the
/// Production environment with the runtime counters switched on. Its own process, because the allocation counters
/// are process-wide. Its output goes to a log file; disposing kills it (and so does the runner's exit).
/// </summary>
public sealed class ApiServerProcess : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(3);

    private readonly StreamWriter _log;
    private ApiProcess _process = null!;
    private bool _logClosed;
    private string? _lastLogLine;

    private ApiServerProcess(StreamWriter log, Uri grpcAddress)
    {
        _log = log;
        GrpcAddress = grpcAddress;
    }

    public Uri BaseAddress => _process.BaseAddress;

    /// <summary>The gRPC (h2c) endpoint, on a free port of its own.</summary>
    public Uri GrpcAddress { get; }

    public int ProcessId => _process.ProcessId;

    public bool HasExited => _process.HasExited;

    /// <summary>How the process ended, for a report: its exit code and the last line it logged.</summary>
    public string DescribeExit()
    {
        lock (_log)
        {
            return $"the API process (pid {ProcessId}) exited with code {_process.ExitCode}; its last log line: '{_lastLogLine}'";
        }
    }

    /// <summary>Builds the API in Release (unless <paramref name="build"/> is false) and returns the path of its assembly.</summary>
    /// <param name="repositoryRoot">The folder holding WebSerialization.sln.</param>
    public static async Task<string> BuildAsync(string repositoryRoot, bool build, string buildLog, CancellationToken cancellationToken)
    {
        var project = Path.Combine(repositoryRoot, "src", "Api", "WebSerialization.Api.csproj");
        if (build)
        {
            Console.WriteLine($"Building the API (Release): dotnet build -c Release {Path.GetRelativePath(Environment.CurrentDirectory, project)}");
            var (exitCode, _) = await RunDotnetAsync(["build", "-c", "Release", project, "-nologo", "-v:q", "-nodeReuse:false"], buildLog, cancellationToken);
            if (exitCode != 0)
            {
                throw new InvalidOperationException($"Building the API failed (exit code {exitCode}); see {buildLog}.");
            }
        }

        var (_, targetPath) = await RunDotnetAsync(["msbuild", project, "-getProperty:TargetPath", "-p:Configuration=Release", "-nologo"], buildLog, cancellationToken);
        var assembly = targetPath.Trim();
        return File.Exists(assembly)
            ? assembly
            : throw new InvalidOperationException($"The Release API is not built at '{assembly}'; run without --no-build.");
    }

    /// <summary>The short commit id checked out in <paramref name="checkout"/>, or "unknown" where git cannot tell.</summary>
    public static string CommitOf(string checkout)
    {
        try
        {
            using var git = Process.Start(new ProcessStartInfo("git", ["-C", checkout, "rev-parse", "--short", "HEAD"]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
            var commit = git.StandardOutput.ReadToEnd().Trim();
            git.WaitForExit();
            return git.ExitCode == 0 && commit.Length > 0 ? commit : "unknown";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "unknown";
        }
    }

    /// <summary>Starts the built API and waits until /healthz answers.</summary>
    /// <param name="assembly">The path of WebSerialization.Api.dll (from <see cref="BuildAsync"/>).</param>
    /// <param name="memberCount">The organization's member count (Organization__MemberCount).</param>
    /// <param name="environment">More environment variables, applied last.</param>
    /// <param name="cpus">The CPUs it runs on (see <see cref="ApiProcessStart.Info"/>); null for any.</param>
    public static async Task<ApiServerProcess> StartAsync(
        string assembly,
        int memberCount,
        IReadOnlyDictionary<string, string> environment,
        string logPath,
        CpuSet? cpus,
        CancellationToken cancellationToken)
    {
        // A port free when it was picked can be taken before the server binds it (any process's outgoing connection
        // may get it as its local port): the server then exits, and is started again on new ports.
        const int Attempts = 3;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return await StartOnceAsync();
            }
            catch (AddressInUseException) when (attempt < Attempts)
            {
                Console.WriteLine("  The API's port was taken before it bound it; starting it again on other ports.");
            }
        }

        async Task<ApiServerProcess> StartOnceAsync()
        {
            var baseAddress = LoopbackPort.FreeAddress();
            var grpcAddress = LoopbackPort.FreeAddress();
            var settings = new Dictionary<string, string>
            {
                ["Metrics__Enabled"] = "true",

                // Every virtual user connects from 127.0.0.1, one client to the server: only the total limit applies to a run.
                ["Limits__MaxHeavyRequestsPerClient"] = int.MaxValue.ToString(CultureInfo.InvariantCulture),
            };
            foreach (var (name, value) in environment)
            {
                settings[name] = value;
            }

            var start = ApiProcessStart.Info(assembly, baseAddress, grpcAddress.Port, memberCount, settings, cpus);
            var server = new ApiServerProcess(new StreamWriter(logPath) { AutoFlush = true }, grpcAddress);
            try
            {
                server._process = ApiProcess.Start(start, baseAddress, server.WriteLog);
            }
            catch (System.ComponentModel.Win32Exception exception)
            {
                await server._log.DisposeAsync();
                throw new InvalidOperationException($"Cannot start the API with {start.FileName} ({exception.Message}){(cpus is null ? string.Empty : ": install util-linux for taskset, or pass --cpu-layout shared")}.", exception);
            }

            Console.WriteLine($"Started the API (pid {server.ProcessId}, {memberCount:N0} members{(cpus is null ? string.Empty : $", on {cpus.Describe()}")}) at {baseAddress}; log: {Path.GetFileName(logPath)}");
            try
            {
                await server._process.WaitUntilHealthyAsync(StartTimeout, $"see {logPath}.", cancellationToken);
                return server;
            }
            catch
            {
                await server.DisposeAsync();
                throw;
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (await _process.StopAsync())
            {
                Console.WriteLine($"Stopped the API (pid {ProcessId}).");
            }
        }
        finally
        {
            await _process.DisposeAsync();
            lock (_log)
            {
                _logClosed = true;
                _log.Dispose();
            }
        }
    }

    /// <summary>Kills the server without waiting, for the runner's exit path.</summary>
    public void KillNow() => _process.KillNow();

    private void WriteLog(string line)
    {
        lock (_log)
        {
            if (!_logClosed)
            {
                _log.WriteLine(line);
                _lastLogLine = string.IsNullOrWhiteSpace(line) ? _lastLogLine : line.Trim();
            }
        }
    }

    // Runs the dotnet CLI, appends its output to the log file, and returns its exit code and standard output.
    private static async Task<(int ExitCode, string Output)> RunDotnetAsync(IReadOnlyList<string> arguments, string logFile, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(DotnetHost.Path, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        using var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start dotnet.");
        try
        {
            var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var error = process.StandardError.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            await File.AppendAllTextAsync(logFile, $"> dotnet {string.Join(' ', arguments)}{Environment.NewLine}{await output}{await error}", cancellationToken);
            return (process.ExitCode, await output);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
    }
}
