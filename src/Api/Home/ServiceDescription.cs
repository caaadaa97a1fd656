namespace WebSerialization.Api.Home;

/// <summary>The body of <c>GET /api/service</c>.</summary>
/// <param name="MemberCount">The members the server holds: the largest <c>count</c> a download may ask for.</param>
/// <param name="Links">Where the server's other documents are.</param>
public sealed record ServiceDescription(int MemberCount, ServiceLinks Links);

/// <summary>Paths on this server; null for one that configuration switched off.</summary>
/// <param name="Schema">The protobuf schema (<c>GET /api/organization.proto</c>).</param>
/// <param name="Swagger">Swagger UI, unless <c>Swagger:Enabled</c> is false.</param>
/// <param name="Metrics">The Prometheus endpoint, when <c>Metrics:Enabled</c> is true.</param>
public sealed record ServiceLinks(string Schema, string? Swagger, string? Metrics);
