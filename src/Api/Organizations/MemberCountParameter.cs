using System.Globalization;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// The download's <c>count</c> query parameter, read in one place for the endpoint and for the heavy-request limiter:
/// absent means every member; otherwise a whole number from 0 to the organization's member count.
/// </summary>
internal static class MemberCountParameter
{
    /// <summary>The parameter's name in the query string.</summary>
    public const string Name = "count";

    /// <summary>The members asked for, or false when <paramref name="count"/> is not a whole number from 0 to <paramref name="available"/>.</summary>
    public static bool TryRead(string? count, int available, out int memberCount)
    {
        if (count is null)
        {
            memberCount = available;
            return true;
        }

        return int.TryParse(count, NumberStyles.None, CultureInfo.InvariantCulture, out memberCount) && memberCount <= available;
    }

    /// <summary>The problem's detail for a count <see cref="TryRead"/> refused.</summary>
    public static string Invalid(string count, int available) =>
        $"count must be a whole number from 0 to {available.ToString(CultureInfo.InvariantCulture)}; got '{count}'.";
}
