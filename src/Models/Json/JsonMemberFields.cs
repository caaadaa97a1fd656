using System.Runtime.CompilerServices;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// The fields of the member <see cref="JsonOrganizationDecoder"/> is reading, filled as its properties arrive (in any
/// order, each at most once, over any number of calls) and handed on as one <see cref="MemberView"/> when its object
/// closes: the numbers here, the texts in buffers reused from member to member, so a member costs no allocation.
/// </summary>
internal sealed class JsonMemberFields
{
    private readonly JsonTextBuffer _name = new();
    private readonly JsonTextBuffer _description = new();
    private readonly JsonTextBuffer _address = new();
    private Properties _seen;

    // The property whose value comes next.
    private Properties _next;
    private int _id;
    private double _value;
    private long _updateTime;

    [Flags]
    private enum Properties : byte
    {
        None = 0,
        Id = 1,
        Name = 2,
        Description = 4,
        Address = 8,
        Value = 16,
        UpdateTime = 32,
    }

    /// <summary>The member, valid until the next <see cref="Start"/> or value is read.</summary>
    public MemberView View => new(_id, _name.Text, _description.Text, _address.Text, _value, _updateTime);

    /// <summary>Starts a member: every field absent (zero, or a null text).</summary>
    public void Start()
    {
        _seen = Properties.None;
        _id = 0;
        _value = 0;
        _updateTime = 0;
        _name.SetNull();
        _description.SetNull();
        _address.SetNull();
    }

    /// <summary>
    /// Takes the property name <paramref name="reader"/> is on; false when the member has no such property. A property
    /// named twice is Malformed: parsers disagree on which copy wins.
    /// </summary>
    public bool AcceptName(ref Utf8JsonReader reader, long offset)
    {
        var property = NameOf(ref reader);
        if (property == Properties.None)
        {
            return false;
        }

        if ((_seen & property) != 0)
        {
            JsonScalars.Duplicate(ref reader, offset);
        }

        _seen |= property;
        _next = property;
        return true;
    }

    /// <summary>Reads the value of the property <see cref="AcceptName"/> took last.</summary>
    public void AcceptValue(ref Utf8JsonReader reader, int maxStringBytes, long offset)
    {
        switch (_next)
        {
            case Properties.Id:
                _id = JsonScalars.ReadInt32(ref reader, offset);
                break;
            case Properties.Name:
                ReadNullableText(ref reader, _name, maxStringBytes, offset);
                break;
            case Properties.Description:
                ReadNullableText(ref reader, _description, maxStringBytes, offset);
                break;
            case Properties.Address:
                ReadNullableText(ref reader, _address, maxStringBytes, offset);
                break;
            case Properties.Value:
                _value = JsonScalars.ReadDouble(ref reader, offset);
                break;
            case Properties.UpdateTime:
                _updateTime = JsonScalars.ReadInt64(ref reader, offset);
                break;
        }
    }

    // In wire order, so that the usual member needs few comparisons.
    private static Properties NameOf(ref Utf8JsonReader reader) =>
        reader.ValueTextEquals("id"u8) ? Properties.Id
        : reader.ValueTextEquals("name"u8) ? Properties.Name
        : reader.ValueTextEquals("description"u8) ? Properties.Description
        : reader.ValueTextEquals("address"u8) ? Properties.Address
        : reader.ValueTextEquals("value"u8) ? Properties.Value
        : reader.ValueTextEquals("updateTime"u8) ? Properties.UpdateTime
        : Properties.None;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void ReadNullableText(ref Utf8JsonReader reader, JsonTextBuffer text, int maxStringBytes, long offset)
    {
        if (reader.TokenType == JsonTokenType.Null)
        {
            text.SetNull();
            return;
        }

        JsonScalars.Require(ref reader, offset, reader.TokenType == JsonTokenType.String, "a string or null");
        text.Read(ref reader, maxStringBytes, offset);
    }
}
