namespace WebSerialization.Codecs.Tests.Binary;

public class BinaryCodecTests
{
    private static readonly BinaryCodec Codec = BinaryCodec.Instance;

    [Fact]
    public void RebuildsTrailingNumbersOfEveryLength()
    {
        // Every digit count a number may have (1 to 19), at both ends of its range and in between, as the last member's
        // text and after a text whose number is another length, in each kind that carries a number.
        var numbers = new List<ulong>();
        var power = 1UL;
        for (var digits = 1; digits <= 19; digits++)
        {
            numbers.AddRange([power == 1 ? 0 : power, power + 7, (power * 10) - 1, power + ((power * 9) / 2)]);
            power *= 10;
        }

        var members = numbers.SelectMany((number, index) => new[]
        {
            new Member { Id = 2 * index, Name = $"Item{number}", Description = $"{number}", Address = $"x{index % 3}y{number}" },
            new Member { Id = (2 * index) + 1, Name = $"Item{numbers[^(index + 1)]}", Description = "no digits", Address = null },
        }).ToList();
        var organization = new Organization { Id = 1, Tags = [], Members = members };

        OrganizationAssert.Equal(organization, Decode(Codec, Encode(Codec, organization, batchSize: 5)));
    }

    [Fact]
    public void TrailingNumbersOfEveryLengthRoundTripAtTheirPowersOfTen()
    {
        // The decoder sizes a value by the number's digit count before it writes the digits: 10^k - 1 and 10^k are the
        // edges of that count. The stems cover an ASCII, a non-ASCII and an empty previous value.
        // "number must be below 10^19, that is, have at most 19 digits"
        var numbers = Enumerable.Range(0, 19).SelectMany(k => new[] { Pow10(k) - 1, Pow10(k) })
            .Append(Pow10(19) - 1)
            .Select(number => number.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .ToArray();
        var organization = new Organization
        {
            Members = [.. numbers.Concat(numbers.Reverse()).Select((number, id) => new Member
            {
                Id = id,
                Name = "TestName" + number,
                Description = "Zürich 😀" + number,
                Address = number,
            })],
        };

        OrganizationAssert.Equal(organization, Decode(Codec, Encode(Codec, organization)));

        static ulong Pow10(int exponent) => exponent == 0 ? 1 : 10 * Pow10(exponent - 1);
    }

    [Fact]
    public void ExtremeIdsAndTimesRoundTripInAnyOrder()
    {
        int[] ids = [int.MinValue, int.MaxValue, 0, -1, int.MaxValue, int.MinValue, int.MinValue, 5, 4];
        long[] times = [long.MinValue, long.MaxValue, 0, long.MaxValue, long.MinValue, -1, 1, long.MinValue, long.MaxValue];
        var organization = new Organization
        {
            Id = int.MinValue,
            Members = [.. ids.Zip(times, (id, time) => new Member { Id = id, UpdateTime = time })],
        };

        OrganizationAssert.Equal(organization, Decode(Codec, Encode(Codec, organization)));
    }
}
