namespace WebSerialization.Models;

/// <summary>
/// Builds the test data of the articles this project answers (the "seed articles") deterministically: Organization 1
/// with tags <c>TestTag0</c>..<c>TestTag4</c> and members whose random parts come from a PRNG with a fixed random seed,
/// so every process, run and format serves the same members.
/// </summary>
public static class OrganizationGenerator
{
    /// <summary>The member count the articles measured.</summary>
    public const int ArticleMemberCount = 1_000_000;

    /// <summary>The PRNG's seed (the date of the first article's run), which fixes every random part of the members.</summary>
    public const int DefaultRandomSeed = 20231210;

    /// <summary>Unix milliseconds of the first article's run (2023-12-10 22:28:24 UTC); update times fall in the day after it.</summary>
    public const long BaseUpdateTime = 1_702_247_304_000;

    private const int MillisecondsPerDay = 86_400_000;

    /// <summary>Creates the organization with <paramref name="memberCount"/> members.</summary>
    public static Organization Create(int memberCount = ArticleMemberCount, int randomSeed = DefaultRandomSeed)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(memberCount);

        // A seeded System.Random keeps its legacy algorithm across .NET versions, which is what makes the data stable.
        var random = new Random(randomSeed);
        var members = new List<Member>(memberCount);
        for (var i = 0; i < memberCount; i++)
        {
            members.Add(new Member
            {
                Id = i,
                Name = $"TestName{i}",
                Description = $"TestDescription{random.Next(1, int.MaxValue)}",
                Address = $"TestAddress{random.Next(1, int.MaxValue)}",
                Value = random.Next(1, int.MaxValue),
                UpdateTime = BaseUpdateTime + random.Next(0, MillisecondsPerDay),
            });
        }

        return new Organization
        {
            Id = 1,
            Tags = [.. Enumerable.Range(0, 5).Select(index => $"TestTag{index}")],
            Members = members,
        };
    }
}
