using System.Globalization;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// A second real app on real Kestrel with <c>Diagnostics:RuntimeEndpoint</c> switched on, as the load runner starts it.
/// It serves 1,000 members rather than the seed's million: what it tests is the counters, not the payload.
/// </summary>
public sealed class RuntimeCountersServer() : ApiServer(new Dictionary<string, string>
{
    ["Diagnostics:RuntimeEndpoint"] = "true",
    ["Organization:MemberCount"] = MemberCount.ToString(CultureInfo.InvariantCulture),
})
{
    public const int MemberCount = 1_000;
}
