using System.Diagnostics;
using Microsoft.Extensions.Options;
using WebSerialization.Models;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// The organization this API serves, generated once per process from the seed article's recipe and held in memory.
/// Every response is encoded from this live object graph; no encoded bytes are cached.
/// </summary>
public sealed partial class SeedOrganization
{
    public SeedOrganization(IOptions<OrganizationOptions> options, ILogger<SeedOrganization> logger)
    {
        var memberCount = options.Value.MemberCount;
        var heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        var stopwatch = Stopwatch.StartNew();
        Value = OrganizationGenerator.Create(memberCount);
        stopwatch.Stop();
        var heapAfter = GC.GetTotalMemory(forceFullCollection: true);
        LogGenerated(logger, memberCount, stopwatch.ElapsedMilliseconds, (heapAfter - heapBefore) / (1024.0 * 1024.0));
    }

    /// <summary>The organization. Treat it as read-only: every request shares it.</summary>
    public Organization Value { get; }

    /// <summary>How many members it has.</summary>
    public int MemberCount => Value.Members!.Count;

    [LoggerMessage(Level = LogLevel.Information, Message = "Generated the organization with {MemberCount} members in {ElapsedMilliseconds} ms; it holds {HeapMegabytes:F1} MB of heap")]
    private static partial void LogGenerated(ILogger logger, int memberCount, long elapsedMilliseconds, double heapMegabytes);
}
