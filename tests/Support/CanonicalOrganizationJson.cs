using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using WebSerialization.Models;

namespace WebSerialization.Tests.Support;

/// <summary>
/// The canonical JSON that tests/Interop's scripts print and read (specified in tests/Interop/canonical.mjs): doubles
/// by their IEEE bits in <c>valueBits</c>, int64 as decimal strings, null and empty kept apart. Written and read here
/// with <see cref="Utf8JsonWriter"/> and <see cref="JsonDocument"/>, not through the JSON codec under test.
/// </summary>
internal static class CanonicalOrganizationJson
{
    public static string Write(Organization organization)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(output))
        {
            writer.WriteStartObject();
            writer.WriteNumber("id", organization.Id);
            writer.WritePropertyName("tags");
            if (organization.Tags is null)
            {
                writer.WriteNullValue();
            }
            else
            {
                writer.WriteStartArray();
                foreach (var tag in organization.Tags)
                {
                    writer.WriteStringValue(tag);
                }

                writer.WriteEndArray();
            }

            writer.WritePropertyName("members");
            if (organization.Members is null)
            {
                writer.WriteNullValue();
            }
            else
            {
                writer.WriteStartArray();
                foreach (var member in organization.Members)
                {
                    writer.WriteStartObject();
                    writer.WriteNumber("id", member.Id);
                    writer.WriteString("name", member.Name);
                    writer.WriteString("description", member.Description);
                    writer.WriteString("address", member.Address);
                    writer.WriteString("valueBits", BitConverter.DoubleToInt64Bits(member.Value).ToString("x16", CultureInfo.InvariantCulture));
                    writer.WriteString("updateTime", member.UpdateTime.ToString(CultureInfo.InvariantCulture));
                    writer.WriteEndObject();
                }

                writer.WriteEndArray();
            }

            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(output.WrittenSpan);
    }

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
