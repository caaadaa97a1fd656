using WebSerialization.Models;
using WebSerialization.Tests.Support;

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

        Assert.Equal(Convert.ToHexString(BinaryTestVectors.Bytes(vector)), Convert.ToHexString(BinaryPayload.Encode(organization)));
    }

    [Theory]
    [MemberData(nameof(Vectors))]
    public void DecodingTheVectorBytesGivesTheVectorObject(string vector)
    {
        var expected = BinaryTestVectors.All[vector].Create();

        OrganizationAssert.Equal(expected, BinaryPayload.Decode(BinaryTestVectors.Bytes(vector)));
    }

    [Fact]
    public void TheSeedShapedVectorIsTheFirstThreeGeneratedMembers() =>
        OrganizationAssert.Equal(BinaryTestVectors.CreateSeedShaped(), OrganizationGenerator.Create(3));
}
