using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace WebSerialization.Api.Lifecycle;

/// <summary>
/// <c>/healthz</c>: 200 while the server takes load, 503 while it warms up (HttpWarmUp) or drains (DrainOnStop).
/// Those are planned states, not failures, so their checks report <see cref="NotTakingLoad"/>, Degraded, which the
/// health-check service logs at Warning for each probe, where Unhealthy is logged at Error and would put an error in the
/// log of every start on one CPU and every drained stop; the endpoint answers Degraded with 503 all the same.
/// </summary>
public static class HealthEndpoint
{
    /// <summary>What a check reports while the server, working as it should, is not to be sent load.</summary>
    public const HealthStatus NotTakingLoad = HealthStatus.Degraded;

    /// <summary>Adds a check whose failure is a planned state of the server's lifecycle: it reports its registration's failure status.</summary>
    public static IHealthChecksBuilder AddLifecycleCheck<T>(this IHealthChecksBuilder builder, string name)
        where T : class, IHealthCheck =>
        builder.AddCheck<T>(name, failureStatus: NotTakingLoad);

    /// <summary>Maps <c>/healthz</c>, answering anything but Healthy with 503.</summary>
    public static IEndpointConventionBuilder MapHealthEndpoint(this IEndpointRouteBuilder endpoints) =>
        endpoints.MapHealthChecks("/healthz", new HealthCheckOptions
        {
            ResultStatusCodes =
            {
                [HealthStatus.Healthy] = StatusCodes.Status200OK,
                [HealthStatus.Degraded] = StatusCodes.Status503ServiceUnavailable,
                [HealthStatus.Unhealthy] = StatusCodes.Status503ServiceUnavailable,
            },
        });
}
