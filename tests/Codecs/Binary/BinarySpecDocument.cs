using System.Globalization;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// What docs/binary-format.md states, read out of it so that the bytes a reader of the spec sees are the bytes the tests
/// check. A vector's bytes are the first <c>```hex</c> block after a heading that starts with "### Vector N"; on each
/// line of the block, the hex bytes come before a '#' and the annotation after it. The rejected payloads are the rows
/// of the table under "### Rejected payloads": a name, the bytes in backticks, the error (with the limit's name
/// after LimitExceeded) and the offset.
/// </summary>
internal static class BinarySpecDocument
{
    private const string RejectedHeading = "### Rejected payloads";

    private static readonly Lazy<string[]> Lines = new(() => File.ReadAllLines(Path.Combine(RepositoryFolder.Root, "docs", "binary-format.md")));

    private static readonly Lazy<IReadOnlyDictionary<string, RejectedPayload>> LazyRejected = new(ReadRejectedPayloads);

    /// <summary>Each test vector's object as the spec describes it, by its heading.</summary>
    public static IReadOnlyDictionary<string, Func<Organization>> Vectors { get; } = new Dictionary<string, Func<Organization>>
    {
        ["Vector 1"] = () => new Organization(),
        ["Vector 2"] = () => new Organization
        {
            Id = -1,
            Tags = ["", null!, "Zürich"],
            Members =
            [
                new Member { Id = 7, Name = null, Description = "", Address = "東京", Value = double.NaN, UpdateTime = -1 },
                new Member { Id = 3, Name = "Łódź 😀", Description = null, Address = "東京 1", Value = -0.0, UpdateTime = 1_702_247_304_000 },
            ],
        },
        ["Vector 3"] = SeedShaped,

        // One member per Text kind and writer rule, in Name.
        ["Vector 4"] = () => new Organization
        {
            Members = [.. new[] { "Room A-101", "Room A-102", "Room B-7", "Room Bx", "Item1234x", "Item1235", "a10b", "a100", "x000", "1234567890123456789012", "42", "", null, "東京 1", "東京タワー" }
                .Select((name, index) => new Member { Id = index + 1, Name = name })],
        },

        // Zigzag and wrap-around at the ends of every range.
        ["Vector 5"] = () => new Organization
        {
            Id = int.MinValue,
            Tags = [],
            Members =
            [
                new Member { Id = int.MaxValue, Value = -9_223_372_036_854_775_808.0, UpdateTime = long.MaxValue },
                new Member { Id = int.MinValue, Value = 9_007_199_254_740_992.0, UpdateTime = long.MinValue },
            ],
        },
    };

    public static TheoryData<string> VectorNames => [.. Vectors.Keys];

    /// <summary>The rejected payloads, by name, in the spec's order.</summary>
    public static IReadOnlyDictionary<string, RejectedPayload> RejectedPayloads => LazyRejected.Value;

    /// <summary>Vector 3: the first three members of <see cref="OrganizationGenerator.Create(int)"/>.</summary>
    public static Organization SeedShaped() => new()
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

    public static byte[] VectorBytes(string vector)
    {
        var lines = Lines.Value;
        var heading = Array.FindIndex(lines, line => line.StartsWith($"### {vector}", StringComparison.Ordinal));
        Assert.True(heading >= 0, $"docs/binary-format.md has no heading \"### {vector}\".");
        var open = Array.FindIndex(lines, heading, line => line.Trim() == "```hex");
        Assert.True(open > heading, $"docs/binary-format.md has no ```hex block under \"### {vector}\".");
        var close = Array.FindIndex(lines, open + 1, line => line.StartsWith("```", StringComparison.Ordinal));
        return Hex(string.Concat(lines[(open + 1)..close].SelectMany(line => line.Split('#')[0].Where(Uri.IsHexDigit))));
    }

    /// <summary>The defaults of the Reading section's table of limits: its rows whose first cell names a limit and second is a number.</summary>
    public static IReadOnlyDictionary<string, int> DefaultLimits() =>
        Lines.Value
            .Where(line => line.StartsWith("| `Max", StringComparison.Ordinal))
            .Select(Cells)
            .ToDictionary(cells => cells[0].Trim('`'), cells => int.Parse(cells[1], NumberStyles.AllowThousands, CultureInfo.InvariantCulture));

    private static IReadOnlyDictionary<string, RejectedPayload> ReadRejectedPayloads()
    {
        var lines = Lines.Value;
        var heading = Array.FindIndex(lines, line => line.Trim() == RejectedHeading);
        Assert.True(heading >= 0, $"docs/binary-format.md has no heading \"{RejectedHeading}\".");
        var rows = lines
            .Skip(heading + 1)
            .TakeWhile(line => !line.StartsWith('#'))
            .Where(line => line.StartsWith('|'))
            .Select(Cells)
            .Where(cells => cells[1].StartsWith('`'))
            .Select(cells => (Cells: cells, Error: cells[2].Split(' ')))
            .Select(row => new RejectedPayload(
                row.Cells[0],
                Hex(string.Concat(row.Cells[1].Where(Uri.IsHexDigit))),
                Enum.Parse<WireFormatError>(row.Error[0]),
                row.Error.Length > 1 ? row.Error[1] : null,
                long.Parse(row.Cells[3], CultureInfo.InvariantCulture)))
            .ToDictionary(payload => payload.Name);
        Assert.NotEmpty(rows);
        return rows;
    }

    private static string[] Cells(string line) => [.. line.Trim().Trim('|').Split('|').Select(cell => cell.Trim())];
}

/// <summary>A row of the spec's rejected payloads: what a reader must report for <paramref name="Bytes"/>.</summary>
internal sealed record RejectedPayload(string Name, byte[] Bytes, WireFormatError Error, string? Limit, long Offset);
