using Grpc.Core;
using ProtoBuf.Grpc;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.IntegrationTests;

// A client's cancel or an expired deadline stops the server's stream, which logs how far it got. On a server of its
// own: grpc-dotnet logs an error when the client's reset reaches a write before the call's cancellation is flagged, a
// race that the shared servers' "no errors logged" checks must not see.
public sealed class GrpcCancellationTests(GrpcCancellationServer server) : IClassFixture<GrpcCancellationServer>
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task CancelOrDeadlineStopsTheServersStreamWithinASecond(bool deadline)
    {
        using var channel = GrpcClients.Channel(server);
        using var cancellation = new CancellationTokenSource();
        var options = deadline
            ? new CallOptions(deadline: DateTime.UtcNow.AddSeconds(2))
            : new CallOptions(cancellationToken: cancellation.Token);
        var before = StoppedStreams();

        var stream = GrpcClients.Organization(channel).StreamOrganizationAsync(new OrganizationRequest(), new CallContext(options));
        await using (var parts = stream.GetAsyncEnumerator(CancellationToken.None))
        {
            Assert.True(await parts.MoveNextAsync());
            Assert.True(await parts.MoveNextAsync());

            // The client stops reading: the server runs into HTTP/2 flow control and waits, until the call ends.
            var stopped = Stopwatch.StartNew();
            if (deadline)
            {
                await Task.Delay(options.Deadline!.Value - DateTime.UtcNow);
                stopped.Restart();
            }
            else
            {
                await cancellation.CancelAsync();
            }

            while (StoppedStreams() == before && stopped.Elapsed < TimeSpan.FromSeconds(5))
            {
                await Task.Delay(10);
            }

            Assert.True(StoppedStreams() > before, "The server never stopped the stream.");
            Assert.True(stopped.Elapsed < TimeSpan.FromSeconds(1), $"The server stopped {stopped.ElapsedMilliseconds} ms after the call ended.");
        }
    }

    private int StoppedStreams() =>
        server.AppEvents.Count(entry => entry.Message.StartsWith("gRPC stream of ", StringComparison.Ordinal));
}

/// <summary>A server whose stream of 200,000 members outlasts HTTP/2's flow-control windows.</summary>
public sealed class GrpcCancellationServer() : ApiServer(new() { ["Organization:MemberCount"] = "200000" });
