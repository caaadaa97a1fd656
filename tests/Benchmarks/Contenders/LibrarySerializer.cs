namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// A library's plain calls, as the seed made them: <c>Serialize(T) → byte[]</c> and <c>Deserialize(byte[])</c>, one
/// library call each (<see cref="SerializerLineup"/> says which).
/// </summary>
public sealed class LibrarySerializer(
    string name, ContenderFamily family, string description, Func<Organization, byte[]> serialize, Func<byte[], Organization> deserialize)
    : OrganizationSerializer(name, family, description)
{
    public override byte[] SerializeToArray(Organization organization) => serialize(organization);

    public override Organization Deserialize(PreparedPayload payload) => deserialize(payload.Bytes);
}
