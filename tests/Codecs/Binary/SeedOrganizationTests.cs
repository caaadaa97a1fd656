namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>The binary format on the seed article's 1,000,000 members: the size docs/binary-format.md quotes.</summary>
public class SeedOrganizationTests(ITestOutputHelper output)
{
    // The size of the seed article's MessagePack with LZ4 block compression.
    private const long SeedMessagePackLz4Bytes = 38_706_475;

    [Fact]
    public void AMillionSeedMembersAreSmallerInBinaryThanInProtobufAndTheSeedsMessagePackWithLz4()
    {
        var seed = OrganizationGenerator.Create();
        var binary = Encode(BinaryCodec.Instance, seed).Length;
        var protobuf = Encode(ProtobufCodec.Instance, seed).Length;
        var json = Encode(JsonCodec.Instance, seed).Length;

        output.WriteLine($"binary {binary:N0} bytes, protobuf {protobuf:N0}, JSON {json:N0}, the seed's MessagePack+LZ4 {SeedMessagePackLz4Bytes:N0}");
        Assert.True(binary < protobuf, $"binary {binary:N0} bytes, protobuf {protobuf:N0}");
        Assert.True(binary < SeedMessagePackLz4Bytes, $"binary {binary:N0} bytes, the seed's MessagePack+LZ4 {SeedMessagePackLz4Bytes:N0}");
    }
}
