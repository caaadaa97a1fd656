using System.Buffers;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// HTTP requests inside a scenario, as NBomber.Http's <c>Http.Send(client, request)</c>: sends on the context's shared
/// client, marks the first body byte, and counts the body really received (the streamed responses have no
/// Content-Length, so nothing else says how big they were). A response succeeds with a 2xx status and at least one
/// body byte, and in the content encoding asked for, if any. HTTP and I/O errors and the invocation's timeout become failed responses; the run stopping is rethrown.
/// </summary>
public static class Http
{
    private const int DrainBufferSize = 64 * 1024;

    /// <summary>
    /// Sends <paramref name="request"/> and drains the body with a pooled buffer, keeping none of it. With
    /// <paramref name="contentEncoding"/>, a response without that <c>Content-Encoding</c> fails: its bytes are not the
    /// compressed ones the scenario counts.
    /// </summary>
    public static async Task<Response> SendAsync(ScenarioContext context, HttpRequestMessage request, string? contentEncoding = null)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(DrainBufferSize);
        try
        {
            return await SendAsync<object>(context, request, async body =>
            {
                long received = 0;
                int read;
                while ((read = await body.ReadAsync(buffer, context.CancellationToken)) > 0)
                {
                    context.FirstByteArrived();
                    received += read;
                }

                return (received, null);
            }, contentEncoding);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Sends <paramref name="request"/> and hands the body on as bytes (as sent, before any decompression).</summary>
    public static Task<Response<byte[]>> SendForBodyAsync(ScenarioContext context, HttpRequestMessage request) =>
        SendAsync(context, request, async body =>
        {
            using var copy = new MemoryStream();
            var buffer = new byte[DrainBufferSize];
            int read;
            while ((read = await body.ReadAsync(buffer, context.CancellationToken)) > 0)
            {
                context.FirstByteArrived();
                copy.Write(buffer, 0, read);
            }

            return (copy.Length, copy.ToArray());
        }, contentEncoding: null);

    private static async Task<Response<T>> SendAsync<T>(ScenarioContext context, HttpRequestMessage request, Func<Stream, Task<(long Received, T? Body)>> read, string? contentEncoding)
    {
        var sent = request.Content?.Headers.ContentLength ?? 0;
        var status = 0;
        long received = 0;
        try
        {
            using var response = await context.Http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, context.CancellationToken);
            status = (int)response.StatusCode;
            await using var stream = await response.Content.ReadAsStreamAsync(context.CancellationToken);
            (received, var body) = await read(stream);
            return !response.IsSuccessStatusCode ? Response.Fail<T>(Response.HttpStatusMessage(status, response.ReasonPhrase), status, received, sent)
                : received == 0 ? Response.Fail<T>($"HTTP {status.ToString(CultureInfo.InvariantCulture)} with an empty body", status, received, sent)
                : EncodingMismatch(response.Content.Headers.ContentEncoding, contentEncoding) is { } mismatch ? Response.Fail<T>(mismatch, status, received, sent)
                : Response.Ok(body!, status, received, sent);
        }
        catch (OperationCanceledException) when (context.IsTimedOut)
        {
            return Response.Fail<T>(context.TimeoutMessage, status, received, sent);
        }
        catch (Exception exception) when (exception is HttpRequestException or IOException)
        {
            return Response.Fail<T>(FailureText.OneLine(exception), status, received, sent);
        }
    }

    // Null when nothing was asked for or exactly what was asked for came; the client decompresses nothing, so the header is as sent.
    private static string? EncodingMismatch(ICollection<string> received, string? asked) =>
        asked is null || received.SequenceEqual([asked], StringComparer.OrdinalIgnoreCase) ? null
            : $"asked for Content-Encoding {asked}, got {(received.Count == 0 ? "none (identity)" : string.Join(", ", received))}";
}
