using System.Diagnostics;
using System.Net.Http.Headers;
using WebSerialization.Load.Cpus;

namespace WebSerialization.Load.LogCost;

/// <summary>The log-cost mode (<c>--log-cost</c>): the servers of <see cref="LogCostVariant.All"/> started side by side on the
/// server's CPUs, 1,000-member binary downloads against each in turn for several rounds (server CPU per request and the
/// bytes it logged), then the mixed load of issue 28 against Production's defaults and the access log, counting the
/// log bytes. Writes docs/results/log-cost.md.</summary>
public static class LogCostRun
{
    private const int DownloadMembers = 1_000;
    private const int MixedDownloadMembers = 10_000;
    private const int Clients = 4;
    private const int DefaultRounds = 6;
    private static readonly TimeSpan HeavyInterval = TimeSpan.FromSeconds(5);

    // What the console's queue and the runner's reader of the server's stdout may still hold when a round ends.
    private static readonly TimeSpan LogSettle = TimeSpan.FromMilliseconds(500);

    /// <summary>Runs the mode; the exit code as the runner's (0 done, 1 a request failed, 2 could not run).</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, LoadOptions options, string repositoryRoot)
    {
        if (await RunPlan.ResolveCpusAsync(options) is not { } cpus)
            return 2;

        var rounds = options.Repetitions > 1 ? options.Repetitions : DefaultRounds;
        var variants = LogCostVariant.All;
        var planned = ((options.WarmUp + (options.Duration * rounds)) * variants.Count) + (options.LogVolumeDuration * 2);
        // Ctrl+C, SIGTERM or SIGHUP end the run through its finally, which stops the three servers: left to the
        // runtime's default, a SIGTERM ended the runner and left them running.
        using var stop = new RunStop(options.OverallTimeout ?? planned + TimeSpan.FromMinutes(5));

        var reportDirectory = Path.Combine(options.ReportsDirectory ?? Path.Combine(repositoryRoot, "reports"), $"log-cost-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}");
        Directory.CreateDirectory(reportDirectory);
        var layout = cpus.Primary;
        var plan = string.Create(CultureInfo.InvariantCulture,
            $"{rounds} rounds; in each, {Clients} concurrent clients download {DownloadMembers:N0} members in the binary format from each server for {options.Duration.TotalSeconds:0.#} s, "
            + $"the servers in turn (odd rounds in the order of the table, even rounds reversed), after a {options.WarmUp.TotalSeconds:0.#} s warm-up of each; "
            + $"then the mixed load for {options.LogVolumeDuration.TotalSeconds:0} s on the Production-defaults server and again on the access-log server: "
            + $"{Clients} clients downloading {MixedDownloadMembers:N0} members in json, msgpack, protobuf and binary in turn, and every {HeavyInterval.TotalSeconds:0} s "
            + $"an upload and a download of all {DownloadTargets.FullMemberCount:N0} members (binary)");
        Console.WriteLine($"Log cost: {plan}. At most {planned:hh\\:mm\\:ss} of load. CPUs: {cpus.Describe(layout)}. Reports: {reportDirectory}");

        var servers = new List<(LogCostVariant Variant, ApiServerProcess Process, string LogPath)>();
        await using var otherWork = OtherProcessesWatch.Start(Environment.ProcessId);
        var cpuSpeed = CpuSpeedWatch.Start();
        var samples = new List<LogCostSample>();
        var volumes = new List<LogVolumeSample>();
        try
        {
            var assembly = await ApiServerProcess.BuildAsync(repositoryRoot, !options.NoBuild, Path.Combine(reportDirectory, "build.log"), stop.Token);
            if (cpus.ClientCpus(layout) is { } client)
                await CpuAffinity.PinThisProcessAsync(client, stop.Token);

            foreach (var variant in variants)
            {
                // The variant's settings over the command line's --server-env.
                var environment = new Dictionary<string, string>(options.ServerEnvironment.Where(pair => !variant.Environment.ContainsKey(pair.Key)).Concat(variant.Environment));
                var logPath = Path.Combine(reportDirectory, $"server-{variant.Name}.log");
                servers.Add((variant, await ApiServerProcess.StartAsync(assembly, DownloadTargets.FullMemberCount, environment, logPath, cpus.ServerCpus(layout), stop.Token), logPath));
            }

            using var http = new HttpClient(new SocketsHttpHandler { UseProxy = false, MaxConnectionsPerServer = Clients * 2, AutomaticDecompression = System.Net.DecompressionMethods.None }) { Timeout = options.RequestTimeout };

            foreach (var (_, process, _) in servers)
                await DownloadAsync(http, process.BaseAddress, options.WarmUp, stop.Token);

            for (var round = 1; round <= rounds; round++)
            {
                foreach (var (variant, process, logPath) in LogCostVariant.InRoundOrder(servers, round))
                {
                    var sample = await MeasureRoundAsync(http, variant, round, process, logPath, options.Duration, stop.Token);
                    samples.Add(sample);
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                        $"  round {round} {variant.Name,-12} {sample.Requests,8:N0} requests, {sample.CpuMicrosecondsPerRequest,6:0.0} µs server CPU/request, {sample.LogBytes,10:N0} log bytes"));
                }
            }

            var production = servers.Single(s => s.Variant == LogCostVariant.ProductionDefaults);
            var whole = await DownloadBodyAsync(http, new Uri(production.Process.BaseAddress, "/api/organization?format=binary"), stop.Token);
            foreach (var (variant, process, logPath) in servers.Where(s => s.Variant != LogCostVariant.LoggingOff))
            {
                var volume = await MixedLoadAsync(http, variant, process, logPath, whole, options.LogVolumeDuration, stop.Token);
                volumes.Add(volume);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  mixed load, {variant.Name}: {volume.Downloads:N0} downloads, {volume.HeavyRequests:N0} heavy requests, {volume.Failed:N0} failed, {volume.LogBytes:N0} log bytes in {volume.LogLines:N0} lines, {volume.DroppedLines:N0} dropped by the console logger"));
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            await Console.Error.WriteLineAsync("The log-cost run was stopped (Ctrl+C, a signal or its overall timeout) before it finished; nothing was written to docs/results/.");
            return 2;
        }
        finally
        {
            foreach (var (_, process, _) in servers)
                await process.DisposeAsync();
        }

        var run = RunDescription.Create(args, options, cpus.Describe(layout), string.Empty) with
        {
            OtherWork = otherWork is null ? null : await otherWork.StopAsync(),
            CpuSpeed = cpuSpeed?.Stop(),
        };
        var serverText = string.Create(CultureInfo.InvariantCulture,
            $"{variants.Count} processes running at once, each a Release build of src/Api on a free 127.0.0.1 port, ASPNETCORE_ENVIRONMENT=Production, Organization__MemberCount={DownloadTargets.FullMemberCount}, "
            + $"with the settings in the table below{string.Concat(options.ServerEnvironment.Select(pair => $", {pair.Key}={pair.Value}"))}; their stdout and stderr read by the runner");
        var markdown = LogCostReport.Render(run, serverText, plan, samples, volumes);
        await File.WriteAllTextAsync(Path.Combine(reportDirectory, LogCostReport.FileName + ".md"), markdown, CancellationToken.None);
        if (!options.NoResults)
        {
            var path = Path.Combine(repositoryRoot, ResultsFile.Folder, LogCostReport.FileName + ".md");
            await File.WriteAllTextAsync(path, markdown, CancellationToken.None);
            Console.WriteLine($"Results: {Path.GetRelativePath(Environment.CurrentDirectory, path)}");
        }

        foreach (var target in LogCostReport.Targets(samples, volumes))
            Console.WriteLine($"{target.Verdict}: {target.Target}: {target.Measured}");

        return samples.Any(s => s.Failed > 0) || volumes.Any(v => v.Failed > 0) ? 1 : 0;
    }

    private static async Task<LogCostSample> MeasureRoundAsync(HttpClient http, LogCostVariant variant, int round, ApiServerProcess process, string logPath, TimeSpan duration, CancellationToken cancellationToken)
    {
        var logBefore = new FileInfo(logPath).Length;
        var cpuBefore = CpuAffinity.CpuTime(process.ProcessId) ?? throw new InvalidOperationException($"Cannot read the CPU time of pid {process.ProcessId}.");
        var stopwatch = Stopwatch.StartNew();
        var (requests, failed) = await DownloadAsync(http, process.BaseAddress, duration, cancellationToken);
        var cpu = (CpuAffinity.CpuTime(process.ProcessId) ?? cpuBefore) - cpuBefore;
        var elapsed = stopwatch.Elapsed;
        await Task.Delay(LogSettle, cancellationToken);
        return new LogCostSample(variant.Name, round, requests, failed, cpu, new FileInfo(logPath).Length - logBefore, elapsed);
    }

    // Clients loop 1,000-member binary downloads until the time is up; returns the answered and the failed requests.
    private static async Task<(long Requests, long Failed)> DownloadAsync(HttpClient http, Uri server, TimeSpan duration, CancellationToken cancellationToken)
    {
        var target = new Uri(server, $"/api/organization?count={DownloadMembers}&format=binary");
        var until = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        long requests = 0, failed = 0;
        await Task.WhenAll(Enumerable.Range(0, Clients).Select(_ => Task.Run(
            async () =>
            {
                var own = new byte[64 * 1024];
                while (Stopwatch.GetTimestamp() < until)
                {
                    var ok = await DrainAsync(http, new HttpRequestMessage(HttpMethod.Get, target), own, cancellationToken);
                    Interlocked.Increment(ref ok ? ref requests : ref failed);
                }
            },
            cancellationToken)));
        return (requests, failed);
    }

    private static async Task<LogVolumeSample> MixedLoadAsync(HttpClient http, LogCostVariant variant, ApiServerProcess process, string logPath, byte[] whole, TimeSpan duration, CancellationToken cancellationToken)
    {
        await Task.Delay(LogSettle, cancellationToken);
        var logBefore = new FileInfo(logPath).Length;
        var until = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        long downloads = 0, heavy = 0, failed = 0;
        var formats = WireFormat.All;

        async Task Downloads(int client)
        {
            var buffer = new byte[64 * 1024];
            for (var n = client; Stopwatch.GetTimestamp() < until; n++)
            {
                var format = formats[n % formats.Count];
                var request = new HttpRequestMessage(HttpMethod.Get, new Uri(process.BaseAddress, $"/api/organization?count={MixedDownloadMembers}&format={format.Key}"));
                var ok = await DrainAsync(http, request, buffer, cancellationToken);
                Interlocked.Increment(ref ok ? ref downloads : ref failed);
            }
        }

        async Task Heavy()
        {
            var buffer = new byte[64 * 1024];
            while (Stopwatch.GetTimestamp() < until)
            {
                var next = Task.Delay(HeavyInterval, cancellationToken);
                var upload = new HttpRequestMessage(HttpMethod.Post, new Uri(process.BaseAddress, "/api/organization")) { Content = new ByteArrayContent(whole) };
                upload.Content.Headers.ContentType = new MediaTypeHeaderValue(WireFormat.Binary.MediaType);
                var uploaded = await DrainAsync(http, upload, buffer, cancellationToken);
                Interlocked.Increment(ref uploaded ? ref heavy : ref failed);
                var download = new HttpRequestMessage(HttpMethod.Get, new Uri(process.BaseAddress, "/api/organization?format=binary"));
                var downloaded = await DrainAsync(http, download, buffer, cancellationToken);
                Interlocked.Increment(ref downloaded ? ref heavy : ref failed);
                await next;
            }
        }

        await Task.WhenAll([.. Enumerable.Range(0, Clients).Select(client => Task.Run(() => Downloads(client), cancellationToken)), Task.Run(Heavy, cancellationToken)]);
        await Task.Delay(LogSettle, cancellationToken);
        var (bytes, lines, dropped) = CountLog(logPath, logBefore);
        return new LogVolumeSample(variant.Name, duration, downloads, heavy, failed, bytes, lines, dropped);
    }

    // Sends the request and reads its body to the end; true for a 2xx whose body arrived whole.
    private static async Task<bool> DrainAsync(HttpClient http, HttpRequestMessage request, byte[] buffer, CancellationToken cancellationToken)
    {
        using (request)
        {
            try
            {
                using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
                await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
                while (await body.ReadAsync(buffer, cancellationToken) > 0)
                {
                }

                return response.IsSuccessStatusCode;
            }
            catch (HttpRequestException)
            {
                return false;
            }
        }
    }

    private static async Task<byte[]> DownloadBodyAsync(HttpClient http, Uri uri, CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync(uri, cancellationToken);
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadAsByteArrayAsync(cancellationToken);
    }

    // The bytes and lines the server's log gained after offset, and the lines its console logger reported dropping.
    private static (long Bytes, long Lines, long Dropped) CountLog(string logPath, long offset)
    {
        using var file = new FileStream(logPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        file.Position = offset;
        var buffer = new byte[64 * 1024];
        long bytes = 0, lines = 0;
        int read;
        while ((read = file.Read(buffer)) > 0)
        {
            bytes += read;
            lines += buffer.AsSpan(0, read).Count((byte)'\n');
        }

        file.Position = offset;
        using var reader = new StreamReader(file);
        long dropped = 0;
        while (reader.ReadLine() is { } line)
        {
            var report = line.IndexOf(DroppedReport, StringComparison.Ordinal);
            if (report > 0 && long.TryParse(line.AsSpan(0, report).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var count))
                dropped += count;
        }

        return (bytes, lines, dropped);
    }

    // How Microsoft.Extensions.Logging.Console reports the lines a full queue made it drop (QueueFullMode DropWrite).
    private const string DroppedReport = " message(s) dropped because of queue size limit";
}

/// <summary>One of the servers the log-cost mode runs side by side: the same Release build in Production with its own logging
/// settings, as environment variables over the image's defaults. Metrics and the runtime endpoint are off in all of
/// them, as in Production, so that logging is the only difference.</summary>
public sealed record LogCostVariant(string Name, string Description, IReadOnlyDictionary<string, string> Environment)
{
    /// <summary>The request log's category, whose level turns the access line on and off.</summary>
    public const string RequestLogCategory = "WebSerialization.Api.Diagnostics.RequestLogMiddleware";

    public static LogCostVariant ProductionDefaults { get; } = new("production", "Production defaults", With());

    /// <summary>Every category at None: what the request costs with nothing logged at all.</summary>
    public static LogCostVariant LoggingOff { get; } = new("logging-off", "logging off (every category None)", With(
        ("Logging__LogLevel__Default", "None"), ("Logging__LogLevel__Microsoft.AspNetCore", "None"), ($"Logging__LogLevel__{RequestLogCategory}", "None")));

    /// <summary>The opt-in access line, one per request.</summary>
    public static LogCostVariant AccessLogOn { get; } = new("access-log", "access log on (request log at Information)", With(($"Logging__LogLevel__{RequestLogCategory}", "Information")));

    /// <summary>The servers, in the order of the first round.</summary>
    public static IReadOnlyList<LogCostVariant> All { get; } = [ProductionDefaults, LoggingOff, AccessLogOn];

    /// <summary>The settings as NAME=VALUE, for the report.</summary>
    public string Settings => string.Join(", ", Environment.Select(pair => $"{pair.Key}={pair.Value}"));

    /// <summary>The order of round <paramref name="round"/> (from 1): odd rounds forwards, even rounds backwards, so that no server
    /// always runs first (after an idle pause) or last (after the others warmed the caches and the CPU clock).</summary>
    public static IReadOnlyList<T> InRoundOrder<T>(IReadOnlyList<T> servers, int round) =>
        round % 2 == 1 ? servers : [.. servers.Reverse()];

    // The variant's logging levels, then metrics off as in Production.
    private static Dictionary<string, string> With(params (string Name, string Value)[] logging) =>
        logging.Append((Name: "Metrics__Enabled", Value: "false")).ToDictionary(setting => setting.Name, setting => setting.Value);
}
