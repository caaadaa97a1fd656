using System.Collections.Concurrent;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using WebSerialization.Tests.Processes;

namespace WebSerialization.IntegrationTests;

// The real app on real Kestrel on 127.0.0.1, serving a million members (or what a subclass configures), shared by the
// ApiCollection; it records the log so that tests can assert that nothing was logged as an error.
public class ApiServer : WebApplicationFactory<Program>
{
    private const string RequestLogCategory = "WebSerialization.Api.Diagnostics.RequestLogMiddleware";

    private readonly Dictionary<string, string> _settings;

    public ApiServer()
        : this([])
    {
    }

    // Configuration settings on top of appsettings.json.
    protected ApiServer(Dictionary<string, string> settings)
    {
        // The gRPC endpoint needs a fixed port that is known before the host starts: a free one, picked here.
        GrpcPort = LoopbackPort.Free();
        _settings = new(settings) { ["Grpc:Port"] = GrpcPort.ToString(CultureInfo.InvariantCulture) };
        Expected = OrganizationGenerator.Create(settings.TryGetValue("Organization:MemberCount", out var count) ? int.Parse(count, CultureInfo.InvariantCulture) : OrganizationGenerator.ArticleMemberCount);
        UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        StartServer();
        var addresses = Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
        BaseAddress = addresses.Select(address => new Uri(address)).Single(address => address.Port != GrpcPort);
        GrpcAddress = new Uri($"http://127.0.0.1:{GrpcPort}");
        Client = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromMinutes(2) };
    }

    public Uri BaseAddress { get; }

    public Uri GrpcAddress { get; }

    public int GrpcPort { get; }

    public HttpClient Client { get; }

    /// <summary>The data the server serves, generated the same way in the test process.</summary>
    public Organization Expected { get; }

    /// <summary><see cref="Expected"/> with its first <paramref name="count"/> members only.</summary>
    public Organization ExpectedFirst(int count) =>
        new() { Id = Expected.Id, Tags = Expected.Tags, Members = Expected.Members!.GetRange(0, count) };

    /// <summary>Every log entry at Warning or above, oldest first.</summary>
    public ConcurrentQueue<(LogLevel Level, string Category, string Message)> Problems { get; } = new();

    /// <summary>Every log entry of the app's own categories (WebSerialization.*), Debug and above, oldest first.</summary>
    public ConcurrentQueue<(LogLevel Level, string Category, string Message)> AppEvents { get; } = new();

    /// <summary>Fails with every Error-level (or worse) entry logged so far, in full.</summary>
    public void AssertNoErrorsLogged()
    {
        var errors = Problems.Where(p => p.Level >= LogLevel.Error).Select(p => $"{p.Category}: {p.Message}").ToArray();
        Assert.True(errors.Length == 0, "The server logged errors:\n" + string.Join("\n\n", errors));
    }

    // Waits until a GET of path and then an upload of five members succeed (a 429 means the heavy permit of an abandoned
    // request has not come back yet; more than 10 s of them fails), then fails on any error logged so far.
    public async Task AssertStillServingAsync(string path = "/api/organization?count=5&format=binary")
    {
        var stopwatch = Stopwatch.StartNew();
        await UntilOkAsync(() => Client.GetAsync(path));
        var body = await HttpPayloads.DownloadAsync(Client, WireFormat.Binary, 5);
        await UntilOkAsync(() => HttpPayloads.UploadAsync(Client, WireFormat.Binary, body));
        AssertNoErrorsLogged();

        async Task UntilOkAsync(Func<Task<HttpResponseMessage>> send)
        {
            while (true)
            {
                using var response = await send();
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }

                Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
                Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(10), "The heavy permit was never released.");
                await Task.Delay(50);
            }
        }
    }

    // Waits until count app log entries after the first skip match; after
    // timeout fails with failure and the last entries logged.
    public async Task WaitForEventsAsync(Func<(LogLevel Level, string Category, string Message), bool> matches, TimeSpan timeout, string failure, int skip = 0, int count = 1)
    {
        var waited = Stopwatch.StartNew();
        while (AppEvents.Skip(skip).Count(matches) < count)
        {
            if (waited.Elapsed >= timeout)
            {
                Assert.Fail($"{failure} The app logged, last:\n{string.Join('\n', AppEvents.TakeLast(20).Select(e => $"{e.Level} {e.Category}: {e.Message}"))}");
            }

            await Task.Delay(20);
        }
    }

    /// <summary>The request log's one line for the request whose query holds <paramref name="marker"/>; it is written just after the response has been sent.</summary>
    public async Task<string> RequestLogLineAsync(string marker)
    {
        bool IsLine((LogLevel, string Category, string Message) e) => e.Category == RequestLogCategory && e.Message.Contains(marker, StringComparison.Ordinal);
        await WaitForEventsAsync(IsLine, TimeSpan.FromSeconds(30), $"No request log line mentions '{marker}' after 30 s.");
        return Assert.Single(AppEvents, IsLine).Message;
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        foreach (var (key, value) in _settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureLogging(logging => logging.AddFilter("WebSerialization", LogLevel.Debug).AddProvider(new LogRecorder(this)));
    }

    // The factory's UseKestrel registers Kestrel's services a second time, after Program's, which puts Kestrel's own
    // memory pool factory back on top; the app's, if it registered one, goes back last, as it is under dotnet run.
    protected override IHost CreateHost(IHostBuilder builder)
    {
        builder.ConfigureServices(services =>
        {
            var appPools = services.LastOrDefault(service => service.ServiceType == typeof(IMemoryPoolFactory<byte>)
                && service.ImplementationType?.Assembly == typeof(Program).Assembly);
            if (appPools is not null)
            {
                services.Remove(appPools);
                services.Add(appPools);
            }
        });
        return base.CreateHost(builder);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Client.Dispose();
        }

        base.Dispose(disposing);
    }

    private sealed class LogRecorder(ApiServer server) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new Recorder(categoryName, server);

        public void Dispose()
        {
        }

        private sealed class Recorder(string category, ApiServer server) : ILogger
        {
            private readonly bool _isApp = category.StartsWith("WebSerialization", StringComparison.Ordinal);

            public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Warning || (_isApp && logLevel >= LogLevel.Debug);

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
            {
                if (!IsEnabled(logLevel))
                {
                    return;
                }

                var entry = (logLevel, category, formatter(state, exception) + (exception is null ? string.Empty : " " + exception));
                if (logLevel >= LogLevel.Warning)
                {
                    server.Problems.Enqueue(entry);
                }

                if (_isApp)
                {
                    server.AppEvents.Enqueue(entry);
                }
            }
        }
    }
}

[CollectionDefinition(Name)]
public sealed class ApiCollection : ICollectionFixture<ApiServer>
{
    public const string Name = "api";
}

/// <summary>A second server with small limits, so that 413s, limit errors and 429s are cheap to provoke.</summary>
public sealed class LimitedApiServer() : ApiServer(new()
{
    ["Organization:MemberCount"] = "1000",
    ["Limits:MaxRequestBodyBytes"] = "262144",
    ["Limits:MaxMembers"] = "500",
    ["Limits:MaxTags"] = "5",
    ["Limits:MaxStringBytes"] = "64",
    ["Limits:MaxConcurrentHeavyRequests"] = "1",
    ["Limits:HeavyDownloadMembers"] = "10",
    ["Limits:RetryAfterSeconds"] = "7",
    ["Grpc:MaxSendMessageBytes"] = "65536",
    ["Grpc:MaxReceiveMessageBytes"] = "65536",
    ["Grpc:BatchSize"] = "100",
})
{
    /// <summary>A body in <paramref name="format"/> over <paramref name="limit"/> (MaxMembers, MaxTags or MaxStringBytes) and within the other two.</summary>
    public async Task<byte[]> BodyOverAsync(WireFormat format, string limit) => limit switch
    {
        "MaxMembers" => await HttpPayloads.DownloadAsync(Client, format, 1000),
        "MaxTags" => CodecHarness.Encode(format.Codec, new Organization { Id = 1, Tags = ["a", "b", "c", "d", "e", "f"], Members = [] }),
        _ => CodecHarness.Encode(format.Codec, new Organization { Id = 1, Tags = [], Members = [new() { Id = 1, Name = new string('n', 100) }] }),
    };
}

[CollectionDefinition(Name)]
public sealed class LimitedApiCollection : ICollectionFixture<LimitedApiServer>
{
    public const string Name = "limited-api";
}

/// <summary>A server with Swagger, response compression, the MVC baseline, the encoders' warm-up and the large socket blocks switched off by configuration, serving a small organization.</summary>
public sealed class SwitchedOffApiServer() : ApiServer(new()
{
    ["Organization:MemberCount"] = "100",
    ["Swagger:Enabled"] = "false",
    ["Compression:Enabled"] = "false",
    ["Baseline:Enabled"] = "false",
    ["Organization:WarmUp"] = "false",
    ["SocketBuffers:BlockBytes"] = "0",
});

/// <summary>A server with <c>Metrics:Enabled</c> switched on, as the load runner starts it, serving 1,000 members: what it tests is the metrics, not the payload.</summary>
public sealed class MetricsServer() : ApiServer(new() { ["Metrics:Enabled"] = "true", ["Organization:MemberCount"] = MemberCount.ToString(CultureInfo.InvariantCulture) })
{
    public const int MemberCount = 1_000;

    /// <summary>GETs every member in <paramref name="format"/> (a non-success throws); the body's length.</summary>
    public async Task<long> DownloadAsync(WireFormat format) => (await HttpPayloads.DownloadAsync(Client, format, MemberCount)).LongLength;

    /// <summary>The Prometheus text of <c>/metrics</c>, asserting a 200 as text/plain.</summary>
    public async Task<string> ScrapeAsync()
    {
        using var response = await Client.GetAsync("/metrics");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/plain", response.Content.Headers.ContentType?.MediaType);
        return await response.Content.ReadAsStringAsync();
    }
}
