using System.Diagnostics;
using System.Net;

namespace WebSerialization.Tests.Processes;

/// <summary>Waiting for a started process to serve, and stopping it: what every process these tests start shares.</summary>
public static class Healthz
{
    /// <summary>
    /// Returns once <paramref name="address"/> answers <paramref name="path"/> with 200. Throws what
    /// <paramref name="exited"/> makes as soon as <paramref name="hasExited"/> says the process ended, and what <paramref name="timedOut"/> makes after
    /// <paramref name="timeout"/>; an attempt that gets no answer within 5 s is tried again.
    /// </summary>
    public static async Task WaitAsync(
        Uri address,
        Func<bool> hasExited,
        TimeSpan timeout,
        Func<Exception> exited,
        Func<Exception> timedOut,
        CancellationToken cancellationToken,
        string path = "/healthz")
    {
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = address, Timeout = TimeSpan.FromSeconds(5) };
        var waited = Stopwatch.StartNew();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (hasExited())
            {
                throw exited();
            }

            if (waited.Elapsed > timeout)
            {
                throw timedOut();
            }

            try
            {
                using var response = await client.GetAsync(path, cancellationToken);
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet (an API is still generating its organization).
            }
            catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                // The 5 s attempt timed out; try again.
            }

            await Task.Delay(TimeSpan.FromMilliseconds(100), cancellationToken);
        }
    }

    /// <summary>Kills <paramref name="process"/> with its children, without waiting, for an exit path that cannot wait.</summary>
    public static void KillTreeNow(this Process process)
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
    }
}
