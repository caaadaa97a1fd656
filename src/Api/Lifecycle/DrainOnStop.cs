using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace WebSerialization.Api.Lifecycle;

/// <summary>
/// On a stop (SIGTERM), <c>/healthz</c> answers 503 for <see cref="DrainOptions.DrainSeconds"/> while every request
/// is still served, and only then does the server stop taking connections: a load balancer that checks <c>/healthz</c>
/// sends new requests elsewhere before the listener closes, so a rolling restart loses none. The drain is part of the
/// host's shutdown timeout (<c>shutdownTimeoutSeconds</c>), which still bounds the whole stop.
/// </summary>
public sealed partial class DrainOnStop(IOptions<DrainOptions> options, ILogger<DrainOnStop> logger) : IHostedLifecycleService, IHealthCheck
{
    private volatile bool _draining;

    /// <summary>Whether the stop has begun.</summary>
    public bool Draining => _draining;

    public async Task StoppingAsync(CancellationToken cancellationToken)
    {
        _draining = true;
        var seconds = options.Value.DrainSeconds;
        if (seconds <= 0)
        {
            return;
        }

        LogDraining(logger, seconds);
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(seconds), cancellationToken);
        }
        catch (OperationCanceledException)
        {
            // The shutdown timeout ended the drain early; the stop goes on.
        }
    }

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(_draining ? new HealthCheckResult(context.Registration.FailureStatus, "Stopping: draining before the listener closes.") : HealthCheckResult.Healthy());

    public Task StartingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    [LoggerMessage(Level = LogLevel.Information, Message = "Stopping: /healthz answers 503 for {DrainSeconds} s before the listener closes")]
    private static partial void LogDraining(ILogger logger, double drainSeconds);
}

/// <summary>Configuration section <c>Shutdown</c>.</summary>
public sealed class DrainOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "Shutdown";

    /// <summary>Seconds between a stop's start and the listener closing, with <c>/healthz</c> at 503 (0: none).</summary>
    public double DrainSeconds { get; set; }
}

/// <summary>Registers <see cref="DrainOnStop"/>.</summary>
public static class DrainOnStopExtensions
{
    /// <summary>Adds the drain, as a hosted lifecycle service and as a health check.</summary>
    public static IServiceCollection AddDrainOnStop(this IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<DrainOptions>(configuration.GetSection(DrainOptions.Section));
        services.AddSingleton<DrainOnStop>();
        services.AddHostedService(provider => provider.GetRequiredService<DrainOnStop>());
        services.AddHealthChecks().AddLifecycleCheck<DrainOnStop>("drain");
        return services;
    }
}
