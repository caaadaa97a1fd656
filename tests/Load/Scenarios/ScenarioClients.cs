namespace WebSerialization.Load.Scenarios;

/// <summary>The connections every copy of a scenario shares: the HTTP client, and the gRPC channel when the server has one.</summary>
public sealed record ScenarioClients(HttpClient Http, GrpcConnection? Grpc);
