namespace WebSerialization.Api.Organizations;

/// <summary>Generates the organization before the server takes requests, so the first request is not the one that waits.</summary>
public sealed class SeedOrganizationWarmUp(IServiceProvider services) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        _ = services.GetRequiredService<SeedOrganization>();
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
