namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// The test vectors of docs/binary-format.md: each object as the spec describes it, and its bytes as the spec prints them.
/// </summary>
internal static class BinaryTestVectors
{
    public static IReadOnlyDictionary<string, VectorObject> All { get; } = new Dictionary<string, VectorObject>
    {
        ["Vector 1"] = new(() => new Organization()),
        ["Vector 2"] = new(CreateNullsAndUnicode),
        ["Vector 3"] = new(CreateSeedShaped),
        ["Vector 4"] = new(CreateEveryTextKind),
        ["Vector 5"] = new(CreateExtremes),
    };

    public static TheoryData<string> Names => [.. All.Keys];

    /// <summary>The vector's bytes, read from the hex docs/binary-format.md prints, so that the spec and the tests cannot drift.</summary>
    public static byte[] Bytes(string name) => BinarySpecDocument.VectorBytes(name);

    // Vector 3 as docs/binary-format.md describes it: the first three members of OrganizationGenerator.Create().
    public static Organization CreateSeedShaped() => new()
    {
        Id = 1,
        Tags = ["TestTag0", "TestTag1", "TestTag2", "TestTag3", "TestTag4"],
        Members =
        [
            new Member { Id = 0, Name = "TestName0", Description = "TestDescription2076444024", Address = "TestAddress1047326816", Value = 1268846425, UpdateTime = 1_702_274_075_105 },
            new Member { Id = 1, Name = "TestName1", Description = "TestDescription41303218", Address = "TestAddress1297980777", Value = 100599508, UpdateTime = 1_702_329_319_294 },
            new Member { Id = 2, Name = "TestName2", Description = "TestDescription1125568686", Address = "TestAddress360422960", Value = 678822133, UpdateTime = 1_702_278_216_011 },
        ],
    };

    // Vector 2 as docs/binary-format.md describes it.
    private static Organization CreateNullsAndUnicode() => new()
    {
        Id = -1,
        Tags = ["", null!, "Zürich"],
        Members =
        [
            new Member { Id = 7, Name = null, Description = "", Address = "東京", Value = double.NaN, UpdateTime = -1 },
            new Member { Id = 3, Name = "Łódź 😀", Description = null, Address = "東京 1", Value = -0.0, UpdateTime = 1_702_247_304_000 },
        ],
    };

    // Vector 4 as docs/binary-format.md describes it: one member per Text kind and writer rule, in Name.
    private static Organization CreateEveryTextKind()
    {
        string?[] names =
        [
            "Room A-101", "Room A-102", "Room B-7", "Room Bx", "Item1234x", "Item1235", "a10b", "a100", "x000",
            "1234567890123456789012", "42", "", null, "東京 1", "東京タワー",
        ];
        return new Organization { Members = [.. names.Select((name, index) => new Member { Id = index + 1, Name = name })] };
    }

    // Vector 5 as docs/binary-format.md describes it: zigzag and wrap-around at the ends of every range.
    private static Organization CreateExtremes() => new()
    {
        Id = int.MinValue,
        Tags = [],
        Members =
        [
            new Member { Id = int.MaxValue, Value = -9_223_372_036_854_775_808.0, UpdateTime = long.MaxValue },
            new Member { Id = int.MinValue, Value = 9_007_199_254_740_992.0, UpdateTime = long.MinValue },
        ],
    };
}

/// <summary>How to build a vector's organization.</summary>
internal sealed record VectorObject(Func<Organization> Create);
