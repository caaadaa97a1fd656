using System.Text.Json;

namespace WebSerialization.Codecs.Tests.Json;

public class JsonOrganizationEncoderTests
{
    public static TheoryData<double> Doubles() => [0.0, -0.0, 1.5, -1e308, double.Epsilon, double.NaN, double.PositiveInfinity, double.NegativeInfinity, 1268846425,
        999_999_999_999_999, -999_999_999_999_999, 1e15, -1e15, 1e15 + 2, 1e16, 1e17, -1e17, 123_456_789_012_345_678, 1e18, 123_456_789_012_345.5, 9_007_199_254_740_993, 1e-7, -1, 100];

    [Theory]
    [MemberData(nameof(Doubles))]
    public void WritesMembersExactlyAsTheSourceGeneratedSerializerDoes(double value)
    {
        var organization = new Organization
        {
            Id = -7,
            Tags = ["a", "", "\"quoted\" <tag> & 'é' \u0001 😀"],
            Members =
            [
                new Member { Id = int.MinValue, Name = null, Description = "", Address = "Straße 5 <b>", Value = value, UpdateTime = long.MinValue },
                new Member { Id = int.MaxValue, Name = "\ud83d\ude00", Description = "line\nbreak", Address = null, Value = value, UpdateTime = long.MaxValue },
            ],
        };
        var expected = JsonSerializer.Serialize(organization, ModelsJsonContext.Default.Organization);

        Assert.Equal(expected, Encoding.UTF8.GetString(Encode(JsonCodec.Instance, organization)));
    }
}
