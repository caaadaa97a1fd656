namespace WebSerialization.IntegrationTests.Docker;

// The Docker tests share one run of the stand-in script and one build of the image, rather than one per class.
[CollectionDefinition(Name)]
public sealed class DockerCollection : ICollectionFixture<DockerImageFixture>
{
    public const string Name = "Docker";
}
