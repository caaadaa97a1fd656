using Grpc.Core;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Load.Scenarios.GrpcClient;

/// <summary>
/// gRPC calls inside a scenario, on the context's shared channel, counting every message without decoding it as
/// <see cref="Http"/> drains an HTTP body: size is the messages' bytes, the first byte is the first message (for a
/// unary call, the whole answer). gRPC failures and the invocation's timeout become failed responses.
/// </summary>
public static class GrpcCalls
{
    // The HTTP/2 status of every gRPC answer; the call's own status is in its trailers.
    private const int StatusOk = 200;

    public static Task<Response> GetOrganizationAsync(ScenarioContext context, int memberCount) =>
        CallAsync(context, async options =>
        {
            using var call = context.Grpc.Invoker.AsyncUnaryCall(GrpcConnection.GetOrganization, null, options, new OrganizationRequest { Count = memberCount });
            var bytes = (await call.ResponseAsync).Bytes;
            context.FirstByteArrived();
            return bytes;
        });

    /// <summary><c>StreamOrganization</c> of <paramref name="memberCount"/> members, read to its end.</summary>
    public static Task<Response> StreamOrganizationAsync(ScenarioContext context, int memberCount) =>
        CallAsync(context, async options =>
        {
            using var call = context.Grpc.Invoker.AsyncServerStreamingCall(GrpcConnection.StreamOrganization, null, options, new OrganizationRequest { Count = memberCount });
            long received = 0;
            while (await call.ResponseStream.MoveNext(context.CancellationToken))
            {
                context.FirstByteArrived();
                received += call.ResponseStream.Current.Bytes;
            }

            return received;
        });

    private static async Task<Response> CallAsync(ScenarioContext context, Func<CallOptions, Task<long>> call)
    {
        try
        {
            var received = await call(new CallOptions(cancellationToken: context.CancellationToken));
            return received == 0 ? Response.Fail("gRPC OK with no message bytes", StatusOk) : Response.Ok(StatusOk, received);
        }
        catch (RpcException) when (context.IsTimedOut)
        {
            return Response.Fail(context.TimeoutMessage);
        }
        catch (RpcException exception) when (!context.CancellationToken.IsCancellationRequested)
        {
            return Response.Fail(string.Create(CultureInfo.InvariantCulture, $"gRPC {exception.StatusCode}: {exception.Status.Detail}").ReplaceLineEndings(" "));
        }
    }
}
