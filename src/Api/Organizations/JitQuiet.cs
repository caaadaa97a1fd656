using System.Diagnostics;
using System.Runtime;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// How both warm-ups decide they are done: they repeat a round until no method has been compiled for a quiet time,
/// or until a bound since they started, so a slow machine cannot hold the server's start up for ever.
/// </summary>
internal static class JitQuiet
{
    /// <summary>Runs <paramref name="round"/> until a quiet time passes with no new compile, or the bound; returns the rounds run.</summary>
    public static async Task<int> RepeatUntilQuietAsync(Func<CancellationToken, Task> round, TimeSpan quietTime, long startedTimestamp, TimeSpan bound, CancellationToken cancellationToken)
    {
        var rounds = 0;
        var compiled = JitInfo.GetCompiledMethodCount();
        for (var quietSince = Stopwatch.GetTimestamp(); Stopwatch.GetElapsedTime(quietSince) < quietTime && Stopwatch.GetElapsedTime(startedTimestamp) < bound;)
        {
            await round(cancellationToken);
            rounds++;
            if (JitInfo.GetCompiledMethodCount() is var count && count != compiled)
            {
                compiled = count;
                quietSince = Stopwatch.GetTimestamp();
            }
        }

        return rounds;
    }
}
