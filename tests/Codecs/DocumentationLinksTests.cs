using System.Text;
using System.Text.RegularExpressions;

namespace WebSerialization.Codecs.Tests;

/// <summary>
/// Every link in the repository's Markdown leads somewhere in the repository: a file or folder that exists and, for a
/// link into a Markdown file, a heading it has. Docs are moved and split; a link left behind fails here, not in a reader's browser.
/// </summary>
public sealed partial class DocumentationLinksTests
{
    private static readonly string[] SkippedFolders = ["bin", "obj", "node_modules", "reports", "BenchmarkDotNet.Artifacts", ".git"];

    public static TheoryData<string> MarkdownFiles()
    {
        var data = new TheoryData<string>();
        foreach (var file in MarkdownPaths())
        {
            data.Add(file);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(MarkdownFiles))]
    public void EveryLinkLeadsToAFileAndHeadingOfTheRepository(string file)
    {
        var path = Path.Combine(RepositoryFolder.Root, file);
        var broken = new List<string>();
        foreach (var target in Links(File.ReadAllText(path)))
        {
            if (Problem(path, target) is { } problem)
            {
                broken.Add($"{target}: {problem}");
            }
        }

        Assert.True(broken.Count == 0, $"{file} has broken links:\n{string.Join('\n', broken)}");
    }

    [Fact]
    public void FindsTheDocsAndTheirLinks()
    {
        var files = MarkdownPaths().ToList();
        Assert.Contains("README.md", files);
        Assert.Contains("docs/performance.md", files);
        Assert.Contains("tests/Load/README.md", files);
        Assert.Contains("docs/performance.md", Links(File.ReadAllText(Path.Combine(RepositoryFolder.Root, "README.md"))));
    }

    [Theory]
    [InlineData("see [the spec](docs/binary-format.md#text) and ![a chart](results/a.svg)", "docs/binary-format.md#text", "results/a.svg")]
    [InlineData("`[not](a-link.md)` and\n```\n[nor](this.md)\n```\n[but](this.md)", "this.md")]
    [InlineData("[titled](file.md \"its title\")", "file.md")]
    public void ReadsLinksOutsideCode(string markdown, params string[] expected) => Assert.Equal(expected, Links(markdown));

    [Theory]
    [InlineData("## Why the server is built this way", "why-the-server-is-built-this-way")]
    [InlineData("## gRPC: streaming beside the HTTP protobuf download", "grpc-streaming-beside-the-http-protobuf-download")]
    [InlineData("### `Accept` and `?format=`", "accept-and-format")]
    [InlineData("# Upload targets (1,000,000 members)", "upload-targets-1000000-members")]
    public void NamesAnchorsAsGitHubDoes(string heading, string anchor) => Assert.Contains(anchor, Anchors(heading));

    [Fact]
    public void ReportsAMissingFileAndAMissingHeading()
    {
        var readme = Path.Combine(RepositoryFolder.Root, "README.md");
        Assert.Equal("no such file or folder", Problem(readme, "docs/no-such-page.md"));
        Assert.Equal("docs/performance.md has no heading #no-such-heading", Problem(readme, "docs/performance.md#no-such-heading"));
        Assert.Equal("outside the repository", Problem(readme, "https://example.com/"));
        Assert.Null(Problem(readme, "docs/performance.md#targets"));
    }

    private static IEnumerable<string> MarkdownPaths() =>
        Markdown(RepositoryFolder.Root).Select(file => Path.GetRelativePath(RepositoryFolder.Root, file).Replace('\\', '/')).Order(StringComparer.Ordinal);

    private static IEnumerable<string> Markdown(string folder)
    {
        foreach (var file in Directory.EnumerateFiles(folder, "*.md"))
        {
            yield return file;
        }

        foreach (var child in Directory.EnumerateDirectories(folder).Where(child => !SkippedFolders.Contains(Path.GetFileName(child))))
        {
            foreach (var file in Markdown(child))
            {
                yield return file;
            }
        }
    }

    private static List<string> Links(string markdown)
    {
        return [.. OutsideCodeBlocks(markdown).SelectMany(line => LinkPattern().Matches(CodeSpan().Replace(line, string.Empty))).Select(match => match.Groups["target"].Value)];
    }

    private static IEnumerable<string> OutsideCodeBlocks(string markdown)
    {
        var inFence = false;
        foreach (var line in markdown.Split('\n'))
        {
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                inFence = !inFence;
            }
            else if (!inFence)
            {
                yield return line;
            }
        }
    }

    private static string? Problem(string markdownFile, string target)
    {
        if (target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
        {
            return "outside the repository";
        }

        var hash = target.IndexOf('#', StringComparison.Ordinal);
        var file = hash < 0 ? target : target[..hash];
        var resolved = file.Length == 0 ? markdownFile : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(markdownFile)!, Uri.UnescapeDataString(file)));
        if (!File.Exists(resolved) && !Directory.Exists(resolved))
        {
            return "no such file or folder";
        }

        if (!resolved.StartsWith(RepositoryFolder.Root, StringComparison.Ordinal))
        {
            return "outside the repository";
        }

        if (hash < 0 || !resolved.EndsWith(".md", StringComparison.Ordinal))
        {
            return null;
        }

        var anchor = target[(hash + 1)..];
        return Anchors(File.ReadAllText(resolved)).Contains(anchor)
            ? null
            : $"{Path.GetRelativePath(RepositoryFolder.Root, resolved).Replace('\\', '/')} has no heading #{anchor}";
    }

    // GitHub's heading anchors: lower case, punctuation but hyphens and underscores dropped, spaces to hyphens, repeats numbered.
    private static HashSet<string> Anchors(string markdown)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        foreach (var line in OutsideCodeBlocks(markdown))
        {
            if (Heading().Match(line) is { Success: true } heading)
            {
                var slug = new StringBuilder();
                foreach (var c in heading.Groups["text"].Value.Trim().ToLowerInvariant())
                {
                    if (char.IsLetterOrDigit(c) || c is '-' or '_')
                    {
                        slug.Append(c);
                    }
                    else if (c == ' ')
                    {
                        slug.Append('-');
                    }
                }

                var anchor = slug.ToString();
                for (var n = 1; !anchors.Add(anchor); n++)
                {
                    anchor = $"{slug}-{n}";
                }
            }
        }

        return anchors;
    }

    [GeneratedRegex(@"!?\[[^\]]*\]\((?<target>[^)\s]+)(?:\s+""[^""]*"")?\)")]
    private static partial Regex LinkPattern();

    [GeneratedRegex("`[^`]*`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"^#{1,6}\s+(?<text>.+?)\s*#*\s*$")]
    private static partial Regex Heading();
}
