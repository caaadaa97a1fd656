namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// Reads the test vectors out of docs/binary-format.md, so that the bytes a reader of the spec sees are the bytes the
/// tests check. A vector is the first <c>```hex</c> block after a heading that starts with "### Vector N"; on each
/// line of the block, the hex bytes come before a '#' and the annotation after it.
/// </summary>
internal static class BinarySpecDocument
{
    public static byte[] VectorBytes(string vector)
    {
        var lines = File.ReadAllLines(FindSpec());
        var heading = Array.FindIndex(lines, line => line.StartsWith($"### {vector}", StringComparison.Ordinal));
        Assert.True(heading >= 0, $"docs/binary-format.md has no heading \"### {vector}\".");
        var open = Array.FindIndex(lines, heading, line => line.Trim() == "```hex");
        Assert.True(open > heading, $"docs/binary-format.md has no ```hex block under \"### {vector}\".");
        var close = Array.FindIndex(lines, open + 1, line => line.StartsWith("```", StringComparison.Ordinal));
        var hex = lines[(open + 1)..close].Select(line => line.Split('#')[0]).SelectMany(part => part.Where(Uri.IsHexDigit));
        return Convert.FromHexString(string.Concat(hex));
    }

    private static string FindSpec()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            var candidate = Path.Combine(directory.FullName, "docs", "binary-format.md");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new FileNotFoundException("docs/binary-format.md was not found above the test binaries.");
    }
}
