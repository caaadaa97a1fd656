using System.Text;
using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Organizations that exercise every corner of the model: Unicode, empty and null strings, extreme numbers.</summary>
internal static class TestOrganizations
{
    // Surrogate pairs, combining marks, right-to-left text, a real U+FFFD, and characters JSON must escape.
    private static readonly string[] Fragments =
    [
        "a", "Z", "0", " ", "é", "ß", "中文", "עברית", "😀", "👩‍👩‍👧", "\U0010FFFF", "\U00010000", "\uFFFD", "e\u0301",
        "\"", "\\", "/", "\n", "\t", "\u0000", "\u001F", "\u007F", "\u2028", "</script>", "TestName",
    ];

    private static readonly double[] SpecialDoubles =
    [
        double.NaN, double.PositiveInfinity, double.NegativeInfinity, -0.0, 0.0, double.Epsilon, -double.Epsilon,
        double.MaxValue, double.MinValue, 2.2250738585072009E-308, 0.1, 1.0 / 3, 1e21, 9007199254740993,
    ];

    /// <summary>A seeded random organization: tags are never null (JSON and protobuf cannot carry a null tag), members may have null or empty strings.</summary>
    public static Organization Random(int seed, int memberCount)
    {
        var random = new Random(seed);
        var members = new List<Member>(memberCount);
        for (var index = 0; index < memberCount; index++)
        {
            members.Add(new Member
            {
                Id = NextInt32(random),
                Name = NextString(random),
                Description = NextString(random),
                Address = NextString(random),
                Value = NextDouble(random),
                UpdateTime = NextInt64(random),
            });
        }

        return new Organization
        {
            Id = NextInt32(random),
            Tags = [.. Enumerable.Range(0, random.Next(1, 6)).Select(_ => NextString(random) ?? string.Empty)],
            Members = members,
        };
    }

    /// <summary>One member per extreme: the limits of every integer, every special double, empty and null strings.</summary>
    public static Organization Extremes() => new()
    {
        Id = int.MinValue,
        Tags = [string.Empty, "😀", "TestTag0"],
        Members =
        [
            new() { Id = int.MinValue, Name = string.Empty, Description = null, Address = "\U0010FFFF", Value = -0.0, UpdateTime = long.MinValue },
            new() { Id = int.MaxValue, Name = null, Description = string.Empty, Address = null, Value = double.NaN, UpdateTime = long.MaxValue },
            new() { Id = 0, Name = "\uFFFD", Value = double.PositiveInfinity, UpdateTime = 0 },
            new() { Id = -1, Name = "x", Value = double.NegativeInfinity, UpdateTime = -1 },
            new() { Id = 1, Value = double.Epsilon, UpdateTime = 1 },
            new() { Id = 2, Value = double.MaxValue },
            new() { Id = 3, Value = double.MinValue },
            new() { Id = 4, Value = 0.0 },
        ],
    };

    private static int NextInt32(Random random) => random.Next(6) switch
    {
        0 => int.MinValue,
        1 => int.MaxValue,
        2 => 0,
        3 => -1,
        _ => random.Next(int.MinValue, int.MaxValue),
    };

    private static long NextInt64(Random random) => random.Next(6) switch
    {
        0 => long.MinValue,
        1 => long.MaxValue,
        2 => 0,
        3 => -1,
        _ => random.NextInt64(long.MinValue, long.MaxValue),
    };

    // Random bits include NaNs with payloads and subnormals.
    private static double NextDouble(Random random) => random.Next(3) switch
    {
        0 => SpecialDoubles[random.Next(SpecialDoubles.Length)],
        1 => BitConverter.Int64BitsToDouble(random.NextInt64(long.MinValue, long.MaxValue)),
        _ => (random.NextDouble() * 1e6) - 5e5,
    };

    private static string? NextString(Random random)
    {
        switch (random.Next(8))
        {
            case 0:
                return null;
            case 1:
                return string.Empty;
            default:
                var builder = new StringBuilder();
                for (var count = random.Next(1, 12); count > 0; count--)
                {
                    builder.Append(Fragments[random.Next(Fragments.Length)]);
                }

                return builder.ToString();
        }
    }
}
