using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Field-by-field comparison of organizations that names the first difference.</summary>
internal static class OrganizationAssert
{
    /// <summary>
    /// Asserts that every field is equal: null and empty differ, doubles compare by their bits (so -0.0 is not 0.0),
    /// except that any NaN equals any NaN (JSON cannot carry a NaN's payload).
    /// </summary>
    public static void Equal(Organization expected, Organization actual)
    {
        Assert.Equal(expected.Id, actual.Id);
        Assert.Equal(expected.Tags, actual.Tags);
        if (expected.Members is null || actual.Members is null)
        {
            Assert.Equal(expected.Members is null, actual.Members is null);
            return;
        }

        Assert.Equal(expected.Members.Count, actual.Members.Count);
        for (var index = 0; index < expected.Members.Count; index++)
        {
            var e = expected.Members[index];
            var a = actual.Members[index];

            // Only a difference goes through Assert, which keeps a million members fast.
            if (e.Id != a.Id || e.Name != a.Name || e.Description != a.Description || e.Address != a.Address
                || !SameDouble(e.Value, a.Value) || e.UpdateTime != a.UpdateTime)
            {
                Assert.Fail($"Member {index} differs: expected {Describe(e)}, actual {Describe(a)}.");
            }
        }
    }

    /// <summary>True when both are NaN or both have the same bits.</summary>
    public static bool SameDouble(double expected, double actual) =>
        (double.IsNaN(expected) && double.IsNaN(actual)) || BitConverter.DoubleToInt64Bits(expected) == BitConverter.DoubleToInt64Bits(actual);

    /// <summary>
    /// <paramref name="organization"/> as a proto3 library sees it: a string or list holding its default value (empty)
    /// is the same as an absent one, which our decoder reads as null.
    /// </summary>
    public static Organization Proto3View(Organization organization) => new()
    {
        Id = organization.Id,
        Tags = organization.Tags is { Length: > 0 } tags ? tags : null,
        Members = organization.Members is { Count: > 0 } members
            ? [.. members.Select(m => new Member
            {
                Id = m.Id,
                Name = EmptyAsNull(m.Name),
                Description = EmptyAsNull(m.Description),
                Address = EmptyAsNull(m.Address),
                Value = m.Value,
                UpdateTime = m.UpdateTime,
            })]
            : null,
    };

    private static string? EmptyAsNull(string? value) => string.IsNullOrEmpty(value) ? null : value;

    private static string Describe(Member m) =>
        $"{{Id={m.Id}, Name={Quote(m.Name)}, Description={Quote(m.Description)}, Address={Quote(m.Address)}, Value={m.Value:R} (0x{BitConverter.DoubleToInt64Bits(m.Value):x16}), UpdateTime={m.UpdateTime}}}";

    private static string Quote(string? value) => value is null ? "null" : $"\"{value}\"";
}
