using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>The organizations every interop test sends both ways, by name so that each is its own test case.</summary>
internal static class InteropOrganizations
{
    public static IReadOnlyList<string> Names { get; } = ["seed", "random", "extremes", "empty lists", "nulls"];

    public static Organization Get(string name) => name switch
    {
        "seed" => OrganizationGenerator.Create(100),
        "random" => OrganizationGen.Random(11, 200),
        "extremes" => OrganizationGen.Extremes(),
        "empty lists" => new Organization { Id = 5, Tags = [], Members = [] },
        "nulls" => new Organization(),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "No such organization."),
    };
}
