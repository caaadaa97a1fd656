namespace WebSerialization.IntegrationTests.Docker;

// A container of the image, started as docker run -d with the API's ports published on loopback at ports the
// engine picks, and stopped as docker stop does (SIGTERM, then SIGKILL after the grace). Removed when disposed.
public sealed class DockerContainer : IAsyncDisposable
{
    /// <summary><c>docker stop</c>'s default grace before it kills.</summary>
    public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(10);

    private DockerContainer(string id, Uri baseAddress)
    {
        Id = id;
        BaseAddress = baseAddress;
        Client = new HttpClient { BaseAddress = baseAddress, Timeout = TimeSpan.FromMinutes(2) };
    }

    public string Id { get; }

    // Where port 8080 is published, e.g. http://127.0.0.1:32768.
    public Uri BaseAddress { get; }

    public HttpClient Client { get; }

    /// <summary>Starts <paramref name="image"/> with <paramref name="environment"/> (<c>-e</c>) and <paramref name="options"/> (such as <c>--memory=512m</c>).</summary>
    public static async Task<DockerContainer> StartAsync(string image, IReadOnlyDictionary<string, string>? environment = null, params string[] options)
    {
        var variables = (environment ?? new Dictionary<string, string>())
            .SelectMany(pair => (string[])["-e", $"{pair.Key}={pair.Value}"]);
        string[] run = ["run", "-d", "-p", "127.0.0.1::8080", "-p", "127.0.0.1::8081", .. variables, .. options, image];
        var id = (await DockerCli.RunAsync(run)).Trim();
        var published = DockerCli.Lines(await DockerCli.RunAsync("port", id, "8080/tcp"))[0];
        return new DockerContainer(id, new Uri("http://" + published.Replace("0.0.0.0", "127.0.0.1", StringComparison.Ordinal)));
    }

    /// <summary>Waits until <c>/healthz</c> answers 200, and returns how long after this call it did.</summary>
    public async Task<TimeSpan> WaitUntilHealthyAsync()
    {
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < TimeSpan.FromSeconds(60))
        {
            try
            {
                using var response = await Client.GetAsync("/healthz");
                if (response.IsSuccessStatusCode)
                {
                    return waited.Elapsed;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet; the engine's proxy may also reset the connection until the app is.
            }

            await Task.Delay(50);
        }

        throw new TimeoutException($"/healthz did not answer 200 within 60 s.\n{await TranscriptAsync()}");
    }

    /// <summary>Runs <c>docker stop</c> with its default grace and returns how long it took.</summary>
    public async Task<TimeSpan> StopAsync()
    {
        var stopwatch = Stopwatch.StartNew();
        await DockerCli.RunAsync("stop", Id);
        return stopwatch.Elapsed;
    }

    /// <summary>The container's exit code and whether the kernel's OOM killer ended it.</summary>
    public async Task<(int ExitCode, bool OomKilled)> StateAsync()
    {
        var state = (await DockerCli.RunAsync("inspect", "-f", "{{.State.ExitCode}} {{.State.OOMKilled}}", Id)).Trim().Split(' ');
        return (int.Parse(state[0], CultureInfo.InvariantCulture), bool.Parse(state[1]));
    }

    public Task<string> ExecAsync(params string[] command) => DockerCli.RunAsync(["exec", Id, .. command]);

    /// <summary>The most memory the container's cgroup has used, in bytes (cgroup v2's memory.peak, or v1's max usage).</summary>
    public async Task<long> PeakMemoryBytesAsync() => long.Parse(
        (await ExecAsync("sh", "-c", "cat /sys/fs/cgroup/memory.peak 2>/dev/null || cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes")).Trim(),
        CultureInfo.InvariantCulture);

    /// <summary>What the app wrote to stdout (one JSON object a line in Production) and to stderr.</summary>
    public async Task<(string[] Output, string[] Errors)> LogsAsync()
    {
        var (_, output, error) = await DockerCli.TryRunAsync(["logs", Id]);
        return (DockerCli.Lines(output), DockerCli.Lines(error));
    }

    /// <summary>Every stdout line that is a JSON log entry.</summary>
    public async Task<JsonElement[]> LogEntriesAsync()
    {
        var (output, _) = await LogsAsync();
        return [.. output.Where(line => line.StartsWith('{')).Select(line => JsonDocument.Parse(line).RootElement.Clone())];
    }

    public async Task<string> TranscriptAsync()
    {
        var (output, errors) = await LogsAsync();
        return "stdout:\n" + string.Join('\n', output) + "\nstderr:\n" + string.Join('\n', errors);
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await DockerCli.TryRunAsync(["rm", "-f", Id]);
    }
}
