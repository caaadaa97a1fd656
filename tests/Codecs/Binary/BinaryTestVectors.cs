using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// The test vectors of docs/binary-format.md: each object and its exact bytes, grouped as the spec annotates them.
/// </summary>
internal static class BinaryTestVectors
{
    public static IReadOnlyDictionary<string, (Func<Organization> Create, string Hex)> All { get; } =
        new Dictionary<string, (Func<Organization>, string)>
        {
            ["Vector 1"] = (() => new Organization(), "57 53 42 46 01 00 00 00"),
            ["Vector 2"] = (CreateNullsAndUnicode, """
                57 53 42 46 01 01 04
                01 00 08 5A C3 BC 72 69 63 68
                03
                28 0E 00 00 00 0C E6 9D B1 E4 BA AC 00 00 00 00 00 00 F8 FF 01
                22 07 00 18 C5 81 C3 B3 64 C5 BA 20 F0 9F 98 80 06 03 20 01 00 00 00 00 00 00 00 80 82 AD C4 DD 8A 63
                """),
            ["Vector 3"] = (CreateSeedShaped, """
                57 53 42 46 01 02 06
                09 54 65 73 74 54 61 67 30
                09 54 65 73 74 54 61 67 31
                09 54 65 73 74 54 61 67 32
                09 54 65 73 74 54 61 67 33
                09 54 65 73 74 54 61 67 34
                04
                AA 00
                00 11 54 65 73 74 4E 61 6D 65 00
                00 1F 54 65 73 74 44 65 73 63 72 69 70 74 69 6F 6E F8 8A 90 DE 07
                00 17 54 65 73 74 41 64 64 72 65 73 73 E0 E0 B3 F3 03
                B2 BD 88 BA 09 C2 A7 88 F7 8A 63
                FF 01 B2 F9 D8 13 E9 BA F6 EA 04 A8 9B F8 5F BA D6 D7 34
                FF 02 AE A1 DB 98 04 B0 BC EE AB 01 EA 83 B0 87 05 E5 98 DE 30
                """),
            ["Vector 4"] = (CreateEveryTextKind, """
                57 53 42 46 01 00 00 10
                83 00 0F 52 6F 6F 6D 20 41 2D 65 00 00
                87 66 00 00
                83 05 05 42 2D 07 00 00
                83 06 02 78 00 00
                83 00 12 49 74 65 6D 31 32 33 34 78 00 00
                85 07 05 00 00
                83 00 08 61 31 30 62 00 00
                85 01 64 00 00
                83 00 07 78 30 30 00 00 00
                83 00 07 31 32 33 94 F4 A0 AD D9 FB 99 B2 3F 00 00
                87 2A 00 00
                83 00 00 00 00
                81 00 00
                83 00 0F E6 9D B1 E4 BA AC 20 01 00 00
                83 06 12 E3 82 BF E3 83 AF E3 83 BC 00 00
                """),
            ["Vector 5"] = (CreateExtremes, """
                57 53 42 46 01 FF FF FF FF 0F 01 03
                80 FE FF FF FF 0F FF FF FF FF FF FF FF FF FF 01 FE FF FF FF FF FF FF FF FF 01
                81 80 80 80 80 80 80 80 20 02
                """),
        };

    public static TheoryData<string> Names => [.. All.Keys];

    public static byte[] Bytes(string name) => Convert.FromHexString(string.Concat(All[name].Hex.Where(Uri.IsHexDigit)));

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
