using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using WebSerialization.Models;
using WebSerialization.Tests.Processes;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// The real app on real Kestrel, listening on 127.0.0.1 with an ephemeral port, serving the full 1,000,000
/// members (or what a subclass configures). One instance is shared by every test class in the <see cref="ApiCollection"/>; it records every
/// log entry at Warning or above so tests can assert that nothing was logged as an error.
/// </summary>
public class ApiServer : WebApplicationFactory<Program>
{
    private readonly IReadOnlyDictionary<string, string> _settings;

    public ApiServer()
        : this(new Dictionary<string, string>())
    {
    }

    /// <summary>Starts a server with configuration <paramref name="settings"/> on top of appsettings.json.</summary>
    protected ApiServer(IReadOnlyDictionary<string, string> settings)
    {
        // The gRPC endpoint needs a fixed port that is known before the host starts: a free one, picked here.
        GrpcPort = LoopbackPort.Free();
        _settings = new Dictionary<string, string>(settings) { ["Grpc:Port"] = GrpcPort.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        var memberCount = settings.TryGetValue("Organization:MemberCount", out var configured) ? int.Parse(configured, System.Globalization.CultureInfo.InvariantCulture) : OrganizationGenerator.ArticleMemberCount;
        Expected = OrganizationGenerator.Create(memberCount);
        UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        StartServer();
        var addresses = Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
        BaseAddress = addresses.Select(address => new Uri(address)).Single(address => address.Port != GrpcPort);
        GrpcAddress = new Uri($"http://127.0.0.1:{GrpcPort}");
        Client = new HttpClient { BaseAddress = BaseAddress, Timeout = TimeSpan.FromMinutes(2) };
    }

    /// <summary>Where the server listens, e.g. http://127.0.0.1:41234.</summary>
    public Uri BaseAddress { get; }

    /// <summary>The h2c gRPC endpoint, e.g. http://127.0.0.1:41235.</summary>
    public Uri GrpcAddress { get; }

    /// <summary>The gRPC endpoint's port (configuration <c>Grpc:Port</c>).</summary>
    public int GrpcPort { get; }

    /// <summary>A plain HttpClient (SocketsHttpHandler) pointed at <see cref="BaseAddress"/>.</summary>
    public HttpClient Client { get; }

    /// <summary>The data the server serves, generated the same way in the test process.</summary>
    public Organization Expected { get; }

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

    /// <summary>
    /// Waits until a heavy GET of <paramref name="path"/> succeeds (a 429 means the permit of an abandoned upload has
    /// not come back yet; more than 10 s of them fails), then fails on any error logged so far.
    /// </summary>
    public async Task AssertStillServingAsync(string path)
    {
        var stopwatch = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            using var response = await Client.GetAsync(path);
            if (response.StatusCode == HttpStatusCode.OK)
            {
                break;
            }

            Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(10), "The heavy permit was never released.");
            await Task.Delay(50);
        }

        AssertNoErrorsLogged();
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        foreach (var (key, value) in _settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureLogging(logging =>
        {
            logging.AddFilter("WebSerialization", LogLevel.Debug);
            logging.AddProvider(new LogRecorder(Problems, AppEvents));
        });
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

    private sealed class LogRecorder(ConcurrentQueue<(LogLevel, string, string)> problems, ConcurrentQueue<(LogLevel, string, string)> appEvents) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new Recorder(categoryName, problems, appEvents);

        public void Dispose()
        {
        }

        private sealed class Recorder(string category, ConcurrentQueue<(LogLevel, string, string)> problems, ConcurrentQueue<(LogLevel, string, string)> appEvents) : ILogger
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
                    problems.Enqueue(entry);
                }

                if (_isApp)
                {
                    appEvents.Enqueue(entry);
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
public sealed class LimitedApiServer() : ApiServer(new Dictionary<string, string>
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
});

[CollectionDefinition(Name)]
public sealed class LimitedApiCollection : ICollectionFixture<LimitedApiServer>
{
    public const string Name = "limited-api";
}
