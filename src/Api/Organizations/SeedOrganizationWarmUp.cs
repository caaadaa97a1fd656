using System.Diagnostics;
using System.IO.Pipelines;
using Microsoft.Extensions.Options;
using WebSerialization.Models;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// Before the server takes requests: generates the organization, then streams part of it in every format to nowhere
/// until a pass compiles nothing new. With no call-counting delay (the project file) an encoder method is promoted
/// after its first 30 calls, so this step takes the tier-0 code and its compiles off the first requests of each
/// format, on one CPU as on many (docs/performance.md, "Warm-up" and "One core").
/// </summary>
public sealed partial class SeedOrganizationWarmUp(IServiceProvider services, IOptions<OrganizationOptions> options, ILogger<SeedOrganizationWarmUp> logger) : IHostedService
{
    // Members per pass and format: enough for every per-value path, small enough that a pass takes milliseconds.
    private const int MembersPerPass = 2_000;

    // The warm-up ends when a whole pass compiled nothing new for this long, or at the bound.
    private static readonly TimeSpan QuietTime = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(2);

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var organization = services.GetRequiredService<SeedOrganization>().Value;
        if (!options.Value.WarmUp)
        {
            return;
        }

        var members = Math.Min(MembersPerPass, organization.Members?.Count ?? 0);
        var started = Stopwatch.GetTimestamp();
        var passes = await JitQuiet.RepeatUntilQuietAsync(
            async token =>
            {
                foreach (var format in WireFormat.All)
                {
                    var output = PipeWriter.Create(Stream.Null);
                    await OrganizationStreamWriter.WriteAsync(output, format.Codec.CreateEncoder(), organization, members, token, options.Value.ChunkSize);
                    await output.CompleteAsync();
                }
            },
            QuietTime,
            started,
            Bound,
            cancellationToken);

        LogWarmedUp(logger, passes, members, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    [LoggerMessage(Level = LogLevel.Information, Message = "Encoders warmed up: {Passes} passes of {Members} members in every format, {ElapsedMilliseconds:0} ms")]
    private static partial void LogWarmedUp(ILogger logger, int passes, int members, double elapsedMilliseconds);
}
