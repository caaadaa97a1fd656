using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace WebSerialization.IntegrationTests.Docker;

/// <summary>
/// A Dockerfile read into stages, for the tests that replay it without a Docker engine. It understands what the
/// project's Dockerfile uses (comments, line continuations, FROM ... AS, ENV KEY=value, exec-form ENTRYPOINT);
/// anything else that would change what the image does fails the replay rather than being ignored.
/// </summary>
public sealed partial class DockerfileRecipe
{
    private DockerfileRecipe(IReadOnlyList<DockerStage> stages) => Stages = stages;

    /// <summary>Every stage, in file order.</summary>
    public IReadOnlyList<DockerStage> Stages { get; }

    /// <summary>The last stage: the image that <c>docker build</c> produces.</summary>
    public DockerStage Final => Stages[^1];

    /// <summary>Reads the Dockerfile at <paramref name="path"/>.</summary>
    public static DockerfileRecipe Load(string path) => Parse(File.ReadAllText(path));

    /// <summary>Reads Dockerfile text.</summary>
    public static DockerfileRecipe Parse(string text)
    {
        var stages = new List<DockerStage>();
        string? baseImage = null;
        string? name = null;
        var instructions = new List<DockerInstruction>();
        foreach (var (line, number) in LogicalLines(text))
        {
            var split = line.IndexOfAny([' ', '\t']);
            var keyword = (split < 0 ? line : line[..split]).ToUpperInvariant();
            var arguments = split < 0 ? string.Empty : line[(split + 1)..].Trim();
            if (keyword == "FROM")
            {
                if (baseImage is not null)
                {
                    stages.Add(new DockerStage(baseImage, name, instructions));
                }

                var from = FromArguments().Match(arguments);
                Assert.True(from.Success, $"Dockerfile line {number}: cannot read FROM '{arguments}'.");
                baseImage = from.Groups["image"].Value;
                name = from.Groups["name"].Success ? from.Groups["name"].Value : null;
                instructions = [];
                continue;
            }

            Assert.True(baseImage is not null, $"Dockerfile line {number}: {keyword} before the first FROM.");
            instructions.Add(new DockerInstruction(keyword, arguments, number));
        }

        Assert.True(baseImage is not null, "The Dockerfile has no FROM.");
        stages.Add(new DockerStage(baseImage!, name, instructions));
        return new DockerfileRecipe(stages);
    }

    /// <summary>The stage named <paramref name="name"/> (<c>FROM ... AS name</c>).</summary>
    public DockerStage Stage(string name) =>
        Stages.SingleOrDefault(stage => string.Equals(stage.Name, name, StringComparison.OrdinalIgnoreCase))
        ?? throw new InvalidOperationException($"The Dockerfile has no stage named '{name}'.");

    /// <summary>The variables a stage's ENV instructions set, in order (later ones win).</summary>
    public static IReadOnlyDictionary<string, string> Environment(DockerStage stage)
    {
        var variables = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var instruction in stage.All("ENV"))
        {
            var pairs = EnvPairs().Matches(instruction.Arguments);
            Assert.True(pairs.Count > 0, $"Dockerfile line {instruction.Line}: only the ENV KEY=value form is replayed.");
            foreach (Match pair in pairs)
            {
                variables[pair.Groups["key"].Value] = pair.Groups["quoted"].Success ? pair.Groups["quoted"].Value : pair.Groups["plain"].Value;
            }
        }

        return variables;
    }

    /// <summary>An exec-form (JSON array) ENTRYPOINT, CMD or RUN; null for the shell form.</summary>
    public static string[]? ExecForm(DockerInstruction instruction) =>
        instruction.Arguments.StartsWith('[') ? JsonSerializer.Deserialize<string[]>(instruction.Arguments) : null;

    // Joins continuation lines (a trailing backslash) and drops comments and blank lines, the way docker build does.
    private static IEnumerable<(string Line, int Number)> LogicalLines(string text)
    {
        var current = new StringBuilder();
        var start = 0;
        var lines = text.ReplaceLineEndings("\n").Split('\n');
        for (var index = 0; index < lines.Length; index++)
        {
            var line = lines[index].Trim();
            if (line.StartsWith('#') || (line.Length == 0 && current.Length == 0))
            {
                continue;
            }

            if (current.Length == 0)
            {
                start = index + 1;
            }

            var continues = line.EndsWith('\\');
            current.Append(continues ? line[..^1] : line).Append(' ');
            if (!continues)
            {
                yield return (current.ToString().Trim(), start);
                current.Clear();
            }
        }

        if (current.Length > 0)
        {
            yield return (current.ToString().Trim(), start);
        }
    }

    [GeneratedRegex(@"^(?:--platform=\S+\s+)?(?<image>\S+)(?:\s+[Aa][Ss]\s+(?<name>\S+))?$")]
    private static partial Regex FromArguments();

    [GeneratedRegex("(?<key>[A-Za-z_][A-Za-z0-9_]*)=(?:\"(?<quoted>[^\"]*)\"|(?<plain>\\S*))")]
    private static partial Regex EnvPairs();
}
