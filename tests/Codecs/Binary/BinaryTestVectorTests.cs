namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>The spec's test vectors, with the bytes the spec prints, checked both ways.</summary>
public class BinaryTestVectorTests
{
    [Theory]
    [MemberData(nameof(BinarySpecDocument.VectorNames), MemberType = typeof(BinarySpecDocument))]
    public void EncodingTheVectorObjectGivesExactlyTheVectorBytes(string vector)
    {
        var organization = BinarySpecDocument.Vectors[vector]();

        Assert.Equal(Convert.ToHexString(BinarySpecDocument.VectorBytes(vector)), Convert.ToHexString(Encode(BinaryCodec.Instance, organization)));
    }

    [Theory]
    [MemberData(nameof(BinarySpecDocument.VectorNames), MemberType = typeof(BinarySpecDocument))]
    public void DecodingTheVectorBytesGivesTheVectorObjectHoweverTheyArrive(string vector)
    {
        var expected = BinarySpecDocument.Vectors[vector]();
        var bytes = BinarySpecDocument.VectorBytes(vector);

        OrganizationAssert.Equal(expected, Decode(BinaryCodec.Instance, bytes));
        OrganizationAssert.Equal(expected, Decode(BinaryCodec.Instance, BufferSegment.Split(bytes, 1)));
        OrganizationAssert.Equal(expected, Decode(BinaryCodec.Instance, bytes, chunkSize: 1));
    }

    [Fact]
    public void TheSeedShapedVectorIsTheFirstThreeGeneratedMembers() =>
        OrganizationAssert.Equal(BinarySpecDocument.SeedShaped(), OrganizationGenerator.Create(3));
}
