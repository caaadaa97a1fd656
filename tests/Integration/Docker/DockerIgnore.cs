using System.Text;
using System.Text.RegularExpressions;

namespace WebSerialization.IntegrationTests.Docker;

/// <summary>
/// The rules of a <c>.dockerignore</c>: which paths of the build context docker build leaves out. Patterns follow
/// Go's filepath.Match plus <c>**</c> (any number of directories); a path is left out when it or any folder above
/// it matches. Exceptions (<c>!pattern</c>) are not replayed and fail loudly.
/// </summary>
public sealed class DockerIgnore
{
    private readonly Regex[] _patterns;

    private DockerIgnore(Regex[] patterns) => _patterns = patterns;

    /// <summary>Reads <paramref name="path"/>; no file means nothing is ignored.</summary>
    public static DockerIgnore Load(string path)
    {
        if (!File.Exists(path))
        {
            return new DockerIgnore([]);
        }

        var patterns = new List<Regex>();
        foreach (var raw in File.ReadAllLines(path))
        {
            var line = raw.Trim();
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            Assert.False(line.StartsWith('!'), $".dockerignore: exceptions ('{line}') are not replayed by the tests.");
            patterns.Add(ToRegex(line.TrimStart('/').Replace("./", string.Empty, StringComparison.Ordinal).TrimEnd('/')));
        }

        return new DockerIgnore([.. patterns]);
    }

    /// <summary>Whether <paramref name="relativePath"/> (relative to the context, either separator) stays out of the context.</summary>
    public bool Excludes(string relativePath)
    {
        var parts = relativePath.Replace('\\', '/').Trim('/').Split('/');
        for (var length = 1; length <= parts.Length; length++)
        {
            var candidate = string.Join('/', parts.Take(length));
            if (_patterns.Any(pattern => pattern.IsMatch(candidate)))
            {
                return true;
            }
        }

        return false;
    }

    private static Regex ToRegex(string pattern)
    {
        var regex = new StringBuilder("^");
        for (var index = 0; index < pattern.Length; index++)
        {
            var c = pattern[index];
            if (c == '*' && index + 1 < pattern.Length && pattern[index + 1] == '*')
            {
                var slash = index + 2 < pattern.Length && pattern[index + 2] == '/';
                regex.Append(slash ? "(?:.*/)?" : ".*");
                index += slash ? 2 : 1;
            }
            else
            {
                regex.Append(c switch
                {
                    '*' => "[^/]*",
                    '?' => "[^/]",
                    _ => Regex.Escape(c.ToString()),
                });
            }
        }

        return new Regex(regex.Append('$').ToString(), RegexOptions.CultureInvariant);
    }
}
