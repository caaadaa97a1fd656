using System.Globalization;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// A real app on real Kestrel with <c>Metrics:Enabled</c> switched on, as the load runner starts it. It serves 1,000
/// members: what it tests is the metrics, not the payload.
/// </summary>
public sealed class MetricsServer() : ApiServer(new Dictionary<string, string>
{
    ["Metrics:Enabled"] = "true",
    ["Organization:MemberCount"] = MemberCount.ToString(CultureInfo.InvariantCulture),
})
{
    public const int MemberCount = 1_000;
}
