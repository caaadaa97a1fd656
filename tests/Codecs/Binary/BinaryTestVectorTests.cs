namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>The spec's test vectors, with the bytes the spec prints, checked both ways.</summary>
public class BinaryTestVectorTests
{
    public static TheoryData<string> Vectors => BinaryTestVectors.Names;

    [Theory]
    [MemberData(nameof(Vectors))]
    public void EncodingTheVectorObjectGivesExactlyTheVectorBytes(string vector)
    {
        var organization = BinaryTestVectors.All[vector].Create();

        Assert.Equal(Convert.ToHexString(BinaryTestVectors.Bytes(vector)), Convert.ToHexString(CodecHarness.Encode(BinaryCodec.Instance, organization)));
    }

    [Theory]
    [MemberData(nameof(Vectors))]
    public void DecodingTheVectorBytesGivesTheVectorObjectHoweverTheyArrive(string vector)
    {
        var expected = BinaryTestVectors.All[vector].Create();

        OrganizationAssert.Equal(expected, CodecHarness.Decode(BinaryCodec.Instance, BinaryTestVectors.Bytes(vector)));
        OrganizationAssert.Equal(expected, CodecHarness.Decode(BinaryCodec.Instance, BufferSegment.Split(BinaryTestVectors.Bytes(vector), 1)));
        OrganizationAssert.Equal(expected, CodecHarness.Decode(BinaryCodec.Instance, BinaryTestVectors.Bytes(vector), chunkSize: 1));
    }

    [Fact]
    public void TheSeedShapedVectorIsTheFirstThreeGeneratedMembers() =>
        OrganizationAssert.Equal(BinaryTestVectors.CreateSeedShaped(), OrganizationGenerator.Create(3));
}
