namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>The seed's 1,000,000 members, built once for the tests that need them all.</summary>
public sealed class SeedOrganizationFixture
{
    public Organization Organization { get; } = OrganizationGenerator.Create();
}
