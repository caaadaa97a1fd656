using System.Globalization;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks;

/// <summary>
/// The options this program reads itself; everything else goes to BenchmarkDotNet (<c>--filter</c>,
/// <c>--anyCategories</c>, <c>--list flat</c>, ...).
/// <list type="bullet">
/// <item><c>--dry</c>: CI mode. BenchmarkDotNet's Dry job in this process (no generated projects), 10,000 members
/// unless <c>--members</c> says otherwise; checks that every row runs, measures nothing worth quoting.</item>
/// <item><c>--members N</c>: the organization's member count (default 1,000,000, the seed's).</item>
/// <item><c>--rows A,B</c>: only the rows whose names contain one of the parts, such as <c>--rows Binary,seed</c>
/// (BenchmarkDotNet's <c>--filter</c> selects methods, not parameter values).</item>
/// <item><c>--repeat ROW serialize|deserialize|summarize N</c>: no BenchmarkDotNet, just one row's operation N times in this
/// process, for a profiler to attach to (see <see cref="RepeatedOperation"/>).</item>
/// <item><c>--readers</c>: not the table, but our MessagePack decoder against MessagePack-CSharp's reader
/// (<see cref="Readers.ReaderComparison"/>).</item>
/// </list>
/// </summary>
public sealed record BenchmarkCommandLine(
    bool Dry,
    int MemberCount,
    string? Rows,
    RepeatedOperation? Repeat,
    bool Readers,
    IReadOnlyList<string> Arguments,
    IReadOnlyList<string> BenchmarkArguments)
{
    /// <summary>The members of a dry run: enough to cross every buffer and chunk boundary, small enough for seconds.</summary>
    public const int DryMemberCount = 10_000;

    public static BenchmarkCommandLine Parse(string[] args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var dry = false;
        int? members = null;
        string? rows = null;
        RepeatedOperation? repeat = null;
        var readers = false;
        var rest = new List<string>();
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--dry":
                    dry = true;
                    break;
                case "--readers":
                    readers = true;
                    break;
                case "--members" when i + 1 < args.Length
                    && int.TryParse(args[i + 1], NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out var count) && count >= 0:
                    members = count;
                    i++;
                    break;
                case "--members":
                    throw new ArgumentException("--members needs a whole number of members, such as --members 10000.");
                case "--rows" when i + 1 < args.Length:
                    rows = args[++i];
                    break;
                case "--rows":
                    throw new ArgumentException("--rows needs parts of row names, such as --rows Binary,seed.");
                case "--repeat" when i + 3 < args.Length
                    && args[i + 2] is "serialize" or "deserialize" or "summarize"
                    && int.TryParse(args[i + 3], NumberStyles.None, CultureInfo.InvariantCulture, out var times):
                    repeat = new RepeatedOperation(args[i + 1], args[i + 2], times);
                    i += 3;
                    break;
                case "--repeat":
                    throw new ArgumentException("--repeat needs a row, an operation and a count, such as --repeat \"Binary stream\" deserialize 12.");
                default:
                    rest.Add(args[i]);
                    break;
            }
        }

        // Without a filter BenchmarkDotNet asks interactively which benchmarks to run; everything is meant.
        var selects = rest.Any(arg => arg is "--filter" or "-f" or "--list" or "--help" or "-h" or "--version" or "--info");
        if (!selects)
        {
            rest.AddRange(["--filter", "*"]);
        }

        return new BenchmarkCommandLine(dry, members ?? (dry ? DryMemberCount : OrganizationGenerator.ArticleMemberCount), rows, repeat, readers, args, rest);
    }
}
