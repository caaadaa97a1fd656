namespace WebSerialization.Load.Scenarios;

/// <summary>
/// What a scenario asks of the server, as the reports and targets group scenarios: its <see cref="Key"/> heads the
/// baseline and capacity tables, its <see cref="Title"/> the latency chart's panels. An open set: a scenario of one's
/// own may name its own operation; the built-in ones are below.
/// </summary>
/// <param name="Key">A short lower-case name, e.g. <c>download</c>.</param>
/// <param name="Title">The operation in words, e.g. <c>convert from JSON</c>.</param>
public sealed record ScenarioOperation(string Key, string Title)
{
    /// <summary><c>GET /api/organization?format=KEY&amp;count=N</c>: the server writes.</summary>
    public static ScenarioOperation Download { get; } = new("download", "download");

    /// <summary>The download with <c>Accept-Encoding: br</c> or <c>gzip</c>: the server writes and compresses.</summary>
    public static ScenarioOperation CompressedDownload { get; } = new("compressed-download", "compressed download");

    /// <summary><c>POST /api/organization</c> with a payload in the format: the server reads.</summary>
    public static ScenarioOperation Upload { get; } = new("upload", "upload");

    /// <summary><c>POST /api/organization/convert</c> from JSON to the format: the server reads and writes.</summary>
    public static ScenarioOperation Convert { get; } = new("convert", "convert from JSON");

    /// <summary>gRPC <c>GetOrganization</c>: the organization as one message.</summary>
    public static ScenarioOperation GrpcUnary { get; } = new("grpc-unary", "gRPC unary");

    /// <summary>gRPC <c>StreamOrganization</c>: the id and tags, then the members in batches.</summary>
    public static ScenarioOperation GrpcStream { get; } = new("grpc-stream", "gRPC stream");
}
