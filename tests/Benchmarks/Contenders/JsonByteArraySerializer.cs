using System.Text.Json;
using WebSerialization.Models;
using WebSerialization.Models.Json;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// The seed's JSON helper, with the source-generated context the API uses: <c>JsonSerializer.SerializeToUtf8Bytes</c>
/// and <c>JsonSerializer.Deserialize(byte[])</c>, each one plain library call.
/// </summary>
public sealed class JsonByteArraySerializer : OrganizationSerializer
{
    public override string Name => "JSON byte[]";

    public override string Description =>
        "System.Text.Json's plain calls, as the seed made them: `JsonSerializer.SerializeToUtf8Bytes` and " +
        "`JsonSerializer.Deserialize(byte[])`, with the source-generated `ModelsJsonContext` (camelCase) where the seed " +
        "used reflection and PascalCase.";

    public override ContenderFamily Family => ContenderFamily.Json;

    public override byte[] SerializeToArray(Organization organization) =>
        JsonSerializer.SerializeToUtf8Bytes(organization, ModelsJsonContext.Default.Organization);

    public override long Serialize(Organization organization) => SerializeToArray(organization).Length;

    public override Organization Deserialize(PreparedPayload payload) =>
        JsonSerializer.Deserialize(payload.Bytes, ModelsJsonContext.Default.Organization)
        ?? throw new InvalidDataException("The JSON payload is null.");
}
