using System.Buffers;
using System.Diagnostics;
using System.Globalization;

namespace WebSerialization.Load.Engine;

/// <summary>
/// Sends one request and drains its body with a pooled buffer, counting the bytes really received: the streamed
/// responses have no Content-Length, so nothing else says how big they were.
/// </summary>
public static class MeasuredRequest
{
    private const int DrainBufferSize = 64 * 1024;

    /// <summary>Sends the scenario's request; never throws for HTTP or timeout failures, which become failed samples.</summary>
    /// <param name="client">The shared client.</param>
    /// <param name="scenario">What to send.</param>
    /// <param name="payload">The body of an upload or convert.</param>
    /// <param name="copy">The copy sending it.</param>
    /// <param name="phaseStart">The phase's start timestamp (<see cref="Stopwatch.GetTimestamp"/>).</param>
    /// <param name="requestTimeout">How long the whole request, body included, may take.</param>
    /// <param name="runAborted">Fires when the whole run stops; this one is rethrown, not recorded.</param>
    public static async Task<RequestSample> SendAsync(
        HttpClient client,
        LoadScenario scenario,
        ReadOnlyMemory<byte> payload,
        int copy,
        long phaseStart,
        TimeSpan requestTimeout,
        CancellationToken runAborted)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(scenario);

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(runAborted);
        timeout.CancelAfter(requestTimeout);
        var token = timeout.Token;

        var started = Stopwatch.GetTimestamp();
        TimeSpan? firstByte = null;
        long received = 0;
        var status = 0;
        var buffer = ArrayPool<byte>.Shared.Rent(DrainBufferSize);
        try
        {
            using var request = scenario.CreateRequest(payload);
            using var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, token);
            status = (int)response.StatusCode;
            await using var body = await response.Content.ReadAsStreamAsync(token);
            int read;
            while ((read = await body.ReadAsync(buffer, token)) > 0)
            {
                firstByte ??= Stopwatch.GetElapsedTime(started);
                received += read;
            }

            var error = !response.IsSuccessStatusCode ? $"HTTP {status.ToString(CultureInfo.InvariantCulture)} {response.ReasonPhrase}"
                : received == 0 ? $"HTTP {status.ToString(CultureInfo.InvariantCulture)} with an empty body"
                : null;
            return Sample(error);
        }
        catch (OperationCanceledException) when (!runAborted.IsCancellationRequested)
        {
            return Sample($"timed out after {requestTimeout.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture)} s");
        }
        catch (HttpRequestException exception)
        {
            return Sample(OneLine(exception));
        }
        catch (IOException exception)
        {
            return Sample(OneLine(exception));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        RequestSample Sample(string? error) => new(
            copy,
            Stopwatch.GetElapsedTime(phaseStart, started),
            firstByte,
            Stopwatch.GetElapsedTime(started),
            payload.Length,
            received,
            status,
            error);
    }

    private static string OneLine(Exception exception)
    {
        var message = exception.InnerException is { } inner ? $"{exception.Message} ({inner.Message})" : exception.Message;
        return message.ReplaceLineEndings(" ");
    }
}
