using System.Diagnostics;
using System.Globalization;
using Grpc.Core;
using WebSerialization.Models.Grpc;

namespace WebSerialization.Load.Scenarios.Grpc;

/// <summary>
/// Makes one gRPC call of a <see cref="GrpcScenarios"/> scenario and counts every message without decoding it, as
/// <see cref="MeasuredRequest"/> drains an HTTP body: bytes received are the messages' sizes, time to first byte is time to the first message (for
/// a unary call, the whole answer), time to last byte is time to the end of the call.
/// </summary>
public static class GrpcMeasuredCall
{
    // The HTTP/2 status of every gRPC answer; the call's own status is in its trailers.
    private const int StatusOk = 200;

    /// <summary>Makes the call; never throws for gRPC failures or timeouts, which become failed samples.</summary>
    public static async Task<RequestSample> SendAsync(
        GrpcConnection grpc,
        LoadScenario scenario,
        int copy,
        long phaseStart,
        TimeSpan requestTimeout,
        CancellationToken runAborted)
    {
        ArgumentNullException.ThrowIfNull(grpc);
        ArgumentNullException.ThrowIfNull(scenario);

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(runAborted);
        timeout.CancelAfter(requestTimeout);
        var options = new CallOptions(cancellationToken: timeout.Token);
        var request = new OrganizationRequest { Count = scenario.MemberCount };

        var started = Stopwatch.GetTimestamp();
        TimeSpan? firstMessage = null;
        long received = 0;
        try
        {
            if (scenario.Kind == ScenarioKind.GrpcUnary)
            {
                using var call = grpc.Invoker.AsyncUnaryCall(GrpcConnection.GetOrganization, null, options, request);
                received = (await call.ResponseAsync).Bytes;
                firstMessage = Stopwatch.GetElapsedTime(started);
            }
            else
            {
                using var call = grpc.Invoker.AsyncServerStreamingCall(GrpcConnection.StreamOrganization, null, options, request);
                while (await call.ResponseStream.MoveNext(timeout.Token))
                {
                    firstMessage ??= Stopwatch.GetElapsedTime(started);
                    received += call.ResponseStream.Current.Bytes;
                }
            }

            return Sample(StatusOk, received == 0 ? "gRPC OK with no message bytes" : null);
        }
        catch (RpcException exception) when (!runAborted.IsCancellationRequested)
        {
            return Sample(0, timeout.IsCancellationRequested
                ? $"timed out after {requestTimeout.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture)} s"
                : $"gRPC {exception.StatusCode}: {exception.Status.Detail}".ReplaceLineEndings(" "));
        }

        RequestSample Sample(int status, string? error) => new(
            copy,
            Stopwatch.GetElapsedTime(phaseStart, started),
            firstMessage,
            Stopwatch.GetElapsedTime(started),
            0,
            received,
            status,
            error);
    }

}
