namespace WebSerialization.IntegrationTests;

/// <summary>A server with Swagger, response compression, the MVC baseline, the encoders' warm-up and the large socket blocks switched off by configuration, serving a small organization.</summary>
public sealed class SwitchedOffApiServer() : ApiServer(new Dictionary<string, string>
{
    ["Organization:MemberCount"] = "100",
    ["Swagger:Enabled"] = "false",
    ["Compression:Enabled"] = "false",
    ["Baseline:Enabled"] = "false",
    ["Organization:WarmUp"] = "false",
    ["SocketBuffers:BlockBytes"] = "0",
});
