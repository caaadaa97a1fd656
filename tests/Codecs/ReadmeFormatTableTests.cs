namespace WebSerialization.Codecs.Tests;

/// <summary>README's "Asking for a format" table is typed by hand; it must say what <see cref="WireFormat.All"/> does.</summary>
public sealed class ReadmeFormatTableTests
{
    [Fact]
    public void ListsEveryFormatWithItsMediaTypeAliasesAndKeyInOrder()
    {
        var rows = TableRows(File.ReadAllLines(Path.Combine(RepositoryFolder.Root, "README.md")), "## Asking for a format");

        var expected = WireFormat.All.Select(format => new[]
        {
            format.Name,
            $"`{format.MediaType}`",
            string.Join(", ", format.Aliases.Select(alias => $"`{alias}`")),
            $"`{format.Key}`",
        });
        Assert.Equal(expected, rows);
    }

    // The cells of the first table under `heading`, without its header and separator rows.
    private static IEnumerable<string[]> TableRows(string[] lines, string heading)
    {
        var start = Array.IndexOf(lines, heading);
        Assert.True(start >= 0, $"README.md has no heading \"{heading}\".");
        return lines
            .Skip(start + 1)
            .SkipWhile(line => !line.StartsWith('|'))
            .TakeWhile(line => line.StartsWith('|'))
            .Skip(2)
            .Select(line => line.Trim().Trim('|').Split('|').Select(cell => cell.Trim()).ToArray())
            .ToList();
    }
}
