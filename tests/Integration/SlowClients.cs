using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace WebSerialization.IntegrationTests;

/// <summary>Clients that upload or read slowly from a loopback source address of their own, for the heavy-request limits.</summary>
internal static class SlowClients
{
    internal static bool IsCut((LogLevel Level, string Category, string Message) e, string method, string address, string reason) =>
        e.Level == LogLevel.Information && e.Message.StartsWith($"Cut {method} /api/organization from {address} ", StringComparison.Ordinal) && e.Message.Contains(reason, StringComparison.Ordinal);

    // Sleeps until `bytes` at `bytesPerSecond` are due.
    internal static async Task PaceAsync(Stopwatch clock, long bytes, int bytesPerSecond)
    {
        var due = TimeSpan.FromSeconds((double)bytes / bytesPerSecond) - clock.Elapsed;
        if (due > TimeSpan.Zero)
        {
            await Task.Delay(due);
        }
    }

    // Reads body to its end, 64 KB at a time, at bytesPerSecond from clock's start; the bytes read.
    internal static async Task<long> ReadPacedAsync(Stream body, int bytesPerSecond, Stopwatch clock)
    {
        var buffer = new byte[64 * 1024];
        long received = 0;
        for (int read; (read = await body.ReadAsync(buffer)) > 0;)
        {
            received += read;
            await PaceAsync(clock, received, bytesPerSecond);
        }

        return received;
    }

    // An upload that announces the whole body, asks for 100 Continue, and then sends 1 KB a second until cancelled.
    internal static Task<SlowClient> StartDribblingUploadAsync(int port, string source, byte[] payload, CancellationToken cancellationToken) => StartAsync(
        port,
        source,
        $"POST /api/organization HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {WireMediaTypes.Binary}\r\nContent-Length: {payload.Length}\r\nExpect: 100-continue\r\n\r\n",
        100,
        async socket =>
        {
            for (var offset = 0; !cancellationToken.IsCancellationRequested; offset += 1024)
            {
                await socket.SendAsync(payload.AsMemory(offset, 1024), SocketFlags.None, cancellationToken);
                await Task.Delay(1000, cancellationToken);
            }
        },
        cancellationToken);

    // A download read through a 4 KB receive buffer, 100 bytes every 100 ms (1 KB/s), until cancelled.
    internal static Task<SlowClient> StartSlowReadAsync(int port, string source, string path, CancellationToken cancellationToken, string? forwardedFor = null) => StartAsync(
        port,
        source,
        $"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{(forwardedFor is null ? string.Empty : $"X-Forwarded-For: {forwardedFor}\r\n")}\r\n",
        200,
        async socket =>
        {
            var buffer = new byte[100];
            while (await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken) > 0)
            {
                await Task.Delay(100, cancellationToken);
            }
        },
        cancellationToken,
        receiveBufferBytes: 4096);

    // The first statuses of slow reads of path from source, started one after another, each with its X-Forwarded-For.
    internal static async Task<int[]> ForwardedReadStatusesAsync(int port, string source, string path, params string[] forwardedFor)
    {
        using var slow = new CancellationTokenSource();
        var clients = new List<SlowClient>();
        try
        {
            foreach (var client in forwardedFor)
            {
                clients.Add(await StartSlowReadAsync(port, source, path, slow.Token, client));
            }
        }
        finally
        {
            await slow.CancelAsync();
            clients.ForEach(client => client.Dispose());
        }

        return [.. clients.Select(client => client.Status)];
    }

    // Two slow clients from address, started with start, take its share of heavy requests (each answered proceed, a third
    // request refused with a 429) until the server logs both cut with reason within `within` of their start (then
    // assertCut checks each one's socket); then two heavy GETs of path from the address run together. Answers the
    // lengths of their bodies.
    internal static async Task<long[]> AssertCutAndFreedAsync(ApiServer server, string address, Func<CancellationToken, Task<SlowClient>> start, int proceed, string path, (string Method, string Reason) cut, TimeSpan within, Func<Socket, Task>? assertCut = null)
    {
        using var slow = new CancellationTokenSource();
        var started = Stopwatch.StartNew();
        using var first = await start(slow.Token);
        using var second = await start(slow.Token);
        try
        {
            Assert.Equal(proceed, first.Status);
            Assert.Equal(proceed, second.Status);
            using var client = LoopbackClients.From(address, server.BaseAddress);
            using (var third = await client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead))
            {
                Assert.Equal(HttpStatusCode.TooManyRequests, third.StatusCode);
            }

            await server.WaitForEventsAsync(e => IsCut(e, cut.Method, address, cut.Reason), within - started.Elapsed, $"The slow clients were not both logged as cut within {within}.", count: 2);
            if (assertCut is not null)
            {
                await assertCut(first.Socket);
                await assertCut(second.Socket);
            }

            var again = await Task.WhenAll(Enumerable.Range(0, 2).Select(_ => client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead)));
            Assert.All(again, response => Assert.Equal(HttpStatusCode.OK, response.StatusCode));
            var lengths = await Task.WhenAll(again.Select(async response => (await response.Content.ReadAsByteArrayAsync()).LongLength));
            Array.ForEach(again, response => response.Dispose());
            return lengths;
        }
        finally
        {
            await slow.CancelAsync();
        }
    }

    // Sends the request head from source and reads the first status; when it is `proceed`, goes on in the background until cancelled.
    private static async Task<SlowClient> StartAsync(int port, string source, string head, int proceed, Func<Socket, Task> slowly, CancellationToken cancellationToken, int? receiveBufferBytes = null)
    {
        var socket = await LoopbackClients.ConnectAsync(source, port, receiveBufferBytes);
        await socket.SendAsync(Encoding.ASCII.GetBytes(head));
        var status = await LoopbackClients.ReadStatusAsync(socket, TimeSpan.FromSeconds(10));
        if (status == proceed)
        {
            _ = Task.Run(() => slowly(socket), cancellationToken).ContinueWith(_ => { }, TaskScheduler.Default);
        }

        return new SlowClient(socket, status);
    }

    internal sealed record SlowClient(Socket Socket, int Status) : IDisposable
    {
        public void Dispose() => LoopbackClients.Reset(Socket);
    }
}
