using System.Globalization;
using WebSerialization.Models;

namespace WebSerialization.Load.Scenarios.Grpc;

/// <summary>
/// The gRPC scenarios: <c>grpc-unary-N</c> (<c>GetOrganization</c>, the organization as one message) and
/// <c>grpc-stream-N</c> (<c>StreamOrganization</c>, the id and tags, then batches of members), for each member count,
/// selected by <c>--scenarios</c> prefixes like every other (<c>--scenarios grpc</c>, <c>grpc-stream</c>). They are
/// protobuf on the wire, so they carry the protobuf format and sit beside the HTTP protobuf download in the reports.
/// Size is the messages' bytes (without gRPC's 5-byte frame headers), time to first byte is time to the first message.
/// </summary>
public static class GrpcScenarios
{
    /// <summary>Whether <paramref name="scenario"/> is a gRPC call rather than an HTTP request.</summary>
    public static bool Is(LoadScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return scenario.Kind is ScenarioKind.GrpcUnary or ScenarioKind.GrpcStream;
    }

    /// <summary>The scenario's name, e.g. <c>grpc-stream-1000000</c>.</summary>
    public static string Name(LoadScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return $"grpc-{(scenario.Kind == ScenarioKind.GrpcUnary ? "unary" : "stream")}-{scenario.MemberCount.ToString(CultureInfo.InvariantCulture)}";
    }

    /// <summary>What the call is, for the reports.</summary>
    public static string Description(LoadScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var method = scenario.Kind == ScenarioKind.GrpcUnary ? "GetOrganization" : "StreamOrganization";
        return $"gRPC (h2c) OrganizationService/{method}, Count = {scenario.MemberCount.ToString(CultureInfo.InvariantCulture)}";
    }

    /// <summary>The unary and the streaming scenario for each count, small counts first.</summary>
    public static IEnumerable<LoadScenario> Select(IEnumerable<int> counts)
    {
        var protobuf = WireFormat.Protobuf;
        foreach (var count in counts)
        {
            yield return new LoadScenario(ScenarioKind.GrpcUnary, protobuf, count);
            yield return new LoadScenario(ScenarioKind.GrpcStream, protobuf, count);
        }
    }
}
