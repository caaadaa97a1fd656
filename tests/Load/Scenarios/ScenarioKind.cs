namespace WebSerialization.Load.Scenarios;

/// <summary>What a scenario asks the server to do.</summary>
public enum ScenarioKind
{
    /// <summary><c>GET /api/organization?format=KEY&amp;count=N</c>.</summary>
    Download,

    /// <summary><c>POST /api/organization</c> with a payload in the format's media type.</summary>
    Upload,

    /// <summary><c>POST /api/organization/convert</c> with a JSON payload and <c>Accept</c> = the target format.</summary>
    Convert,

    /// <summary>gRPC <c>GetOrganization</c>: the organization as one message (see <see cref="GrpcScenarios"/>).</summary>
    GrpcUnary,

    /// <summary>gRPC <c>StreamOrganization</c>: the id and tags, then the members in batches (see <see cref="GrpcScenarios"/>).</summary>
    GrpcStream,
}
