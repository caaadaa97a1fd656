using System.Globalization;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// Reads the test vectors out of docs/binary-format.md, so that the bytes a reader of the spec sees are the bytes the
/// tests check. A vector is the first <c>```hex</c> block after a heading that starts with "### Vector N"; on each
/// line of the block, the hex bytes come before a '#' and the annotation after it. The rejected payloads are the rows
/// of the table under "### Rejected payloads": a name, the bytes in backticks, the error (with the limit's name
/// after LimitExceeded) and the offset.
/// </summary>
internal static class BinarySpecDocument
{
    private const string RejectedHeading = "### Rejected payloads";

    private static readonly Lazy<string[]> Lines = new(() => File.ReadAllLines(Path.Combine(RepositoryFolder.Root, "docs", "binary-format.md")));

    /// <summary>The rejected payloads, by name, in the spec's order.</summary>
    public static IReadOnlyDictionary<string, RejectedPayload> RejectedPayloads => LazyRejected.Value;

    private static readonly Lazy<IReadOnlyDictionary<string, RejectedPayload>> LazyRejected = new(ReadRejectedPayloads);

    public static byte[] VectorBytes(string vector)
    {
        var lines = Lines.Value;
        var heading = Array.FindIndex(lines, line => line.StartsWith($"### {vector}", StringComparison.Ordinal));
        Assert.True(heading >= 0, $"docs/binary-format.md has no heading \"### {vector}\".");
        var open = Array.FindIndex(lines, heading, line => line.Trim() == "```hex");
        Assert.True(open > heading, $"docs/binary-format.md has no ```hex block under \"### {vector}\".");
        var close = Array.FindIndex(lines, open + 1, line => line.StartsWith("```", StringComparison.Ordinal));
        var hex = lines[(open + 1)..close].Select(line => line.Split('#')[0]).SelectMany(part => part.Where(Uri.IsHexDigit));
        return CodecHarness.Hex(string.Concat(hex));
    }

    /// <summary>The defaults of the Reading section's table of limits: its rows whose first cell names a limit and second is a number.</summary>
    public static IReadOnlyDictionary<string, int> DefaultLimits() =>
        Lines.Value
            .Where(line => line.StartsWith("| `Max", StringComparison.Ordinal))
            .Select(line => line.Trim('|').Split('|').Select(cell => cell.Trim()).ToArray())
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
            .Select(line => line.Trim().Trim('|').Split('|').Select(cell => cell.Trim()).ToArray())
            .Where(cells => cells[1].StartsWith('`'))
            .Select(cells =>
            {
                var error = cells[2].Split(' ');
                return new RejectedPayload(
                    cells[0],
                    CodecHarness.Hex(string.Concat(cells[1].Where(Uri.IsHexDigit))),
                    Enum.Parse<WireFormatError>(error[0]),
                    error.Length > 1 ? error[1] : null,
                    long.Parse(cells[3], CultureInfo.InvariantCulture));
            })
            .ToDictionary(payload => payload.Name);
        Assert.NotEmpty(rows);
        return rows;
    }
}

/// <summary>A row of the spec's rejected payloads: what a reader must report for <paramref name="Bytes"/>.</summary>
internal sealed record RejectedPayload(string Name, byte[] Bytes, WireFormatError Error, string? Limit, long Offset);
