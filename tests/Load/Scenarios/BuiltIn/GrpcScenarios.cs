namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The gRPC scenarios: <c>grpc-unary-N</c> (<c>GetOrganization</c>, the organization as one message) and
/// <c>grpc-stream-N</c> (<c>StreamOrganization</c>, the id and tags, then batches of members), for each member count,
/// selected by <c>--scenarios</c> prefixes like every other (<c>--scenarios grpc</c>, <c>grpc-stream</c>). They are
/// protobuf on the wire, so they carry the protobuf format and sit beside the HTTP protobuf download in the reports.
/// Size is the messages' bytes (without gRPC's 5-byte frame headers), time to first byte is time to the first message.
/// </summary>
public static class GrpcScenarios
{
    public static LoadScenario Unary(int memberCount) =>
        Create(ScenarioOperation.GrpcUnary, "GetOrganization", memberCount, context => GrpcCalls.GetOrganizationAsync(context, memberCount));

    public static LoadScenario Stream(int memberCount) =>
        Create(ScenarioOperation.GrpcStream, "StreamOrganization", memberCount, context => GrpcCalls.StreamOrganizationAsync(context, memberCount));

    /// <summary>The unary and the streaming scenario for each count, small counts first.</summary>
    public static IEnumerable<LoadScenario> Select(IEnumerable<int> counts) => counts.SelectMany(count => new[] { Unary(count), Stream(count) });

    private static LoadScenario Create(ScenarioOperation operation, string method, int memberCount, Func<ScenarioContext, Task<Response>> call)
    {
        var count = memberCount.ToString(CultureInfo.InvariantCulture);
        return Scenario.Create($"{operation.Key}-{count}", call)
            .WithSubject(new ScenarioSubject(operation, WireFormat.Protobuf, memberCount))
            .WithDescription($"gRPC (h2c) OrganizationService/{method}, Count = {count}");
    }
}
