using System.Globalization;
using System.Text.Json;
using WebSerialization.Models;

namespace WebSerialization.Tests.Support;

/// <summary>
/// The canonical JSON that tests/Interop's scripts print and read (specified in tests/Interop/canonical.mjs): doubles
/// by their IEEE bits in <c>valueBits</c>, int64 as decimal strings, null and empty kept apart. Written and read here
/// with System.Text.Json's serializer and <see cref="JsonDocument"/>, not through the JSON codec under test.
/// </summary>
internal static class CanonicalOrganizationJson
{
    public static string Write(Organization organization) => JsonSerializer.Serialize(new
    {
        id = organization.Id,
        tags = organization.Tags,
        members = organization.Members?.Select(member => new
        {
            id = member.Id,
            name = member.Name,
            description = member.Description,
            address = member.Address,
            valueBits = BitConverter.DoubleToInt64Bits(member.Value).ToString("x16", CultureInfo.InvariantCulture),
            updateTime = member.UpdateTime.ToString(CultureInfo.InvariantCulture),
        }),
    });

    public static Organization Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        var tags = root.GetProperty("tags");
        var members = root.GetProperty("members");
        return new Organization
        {
            Id = root.GetProperty("id").GetInt32(),
            Tags = tags.ValueKind == JsonValueKind.Null ? null : [.. tags.EnumerateArray().Select(tag => tag.GetString()!)],
            Members = members.ValueKind == JsonValueKind.Null ? null : [.. members.EnumerateArray().Select(ParseMember)],
        };
    }

    private static Member ParseMember(JsonElement member) => new()
    {
        Id = member.GetProperty("id").GetInt32(),
        Name = member.GetProperty("name").GetString(),
        Description = member.GetProperty("description").GetString(),
        Address = member.GetProperty("address").GetString(),
        Value = BitConverter.Int64BitsToDouble(long.Parse(member.GetProperty("valueBits").GetString()!, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture)),
        UpdateTime = long.Parse(member.GetProperty("updateTime").GetString()!, CultureInfo.InvariantCulture),
    };
}
