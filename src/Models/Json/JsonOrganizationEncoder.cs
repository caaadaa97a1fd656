using System.Buffers;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// Writes one payload with one <see cref="Utf8JsonWriter"/>, flushed at the end of every call into the output that call
/// was given (a conversion writes its header apart from its members); members property by property with pre-encoded
/// names, the bytes <see cref="ModelsJsonContext"/> would write.
/// </summary>
internal sealed class JsonOrganizationEncoder : IOrganizationEncoder
{
    private static readonly JsonEncodedText IdName = JsonEncodedText.Encode("id");
    private static readonly JsonEncodedText TagsName = JsonEncodedText.Encode("tags");
    private static readonly JsonEncodedText MembersName = JsonEncodedText.Encode("members");
    private static readonly JsonEncodedText NameName = JsonEncodedText.Encode("name");
    private static readonly JsonEncodedText DescriptionName = JsonEncodedText.Encode("description");
    private static readonly JsonEncodedText AddressName = JsonEncodedText.Encode("address");
    private static readonly JsonEncodedText ValueName = JsonEncodedText.Encode("value");
    private static readonly JsonEncodedText UpdateTimeName = JsonEncodedText.Encode("updateTime");

    private readonly CurrentOutput _output = new();
    private Utf8JsonWriter? _writer;
    private bool _hasMembers;

    public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
    {
        _output.Target = output;
        _writer = new Utf8JsonWriter(_output, new JsonWriterOptions { SkipValidation = true });
        var start = Written(_writer);
        _writer.WriteStartObject();
        _writer.WriteNumber(IdName, organization.Id);
        _writer.WritePropertyName(TagsName);
        JsonSerializer.Serialize(_writer, organization.Tags, ModelsJsonContext.Default.StringArray);
        _hasMembers = organization.Members is not null;
        if (_hasMembers)
        {
            _writer.WriteStartArray(MembersName);
        }
        else
        {
            _writer.WriteNull(MembersName);
        }

        return Commit(start);
    }

    public long WriteMembers(IBufferWriter<byte> output, ReadOnlySpan<Member> members)
    {
        var writer = WriterFor(output);
        var start = Written(writer);
        foreach (var member in members)
        {
            writer.WriteStartObject();
            writer.WriteNumber(IdName, member.Id);
            WriteNullableString(writer, NameName, member.Name);
            WriteNullableString(writer, DescriptionName, member.Description);
            WriteNullableString(writer, AddressName, member.Address);
            WriteDouble(writer, ValueName, member.Value);
            writer.WriteNumber(UpdateTimeName, member.UpdateTime);
            writer.WriteEndObject();
        }

        return Commit(start);
    }

    public long WriteMember(IBufferWriter<byte> output, in MemberView member)
    {
        var writer = WriterFor(output);
        var start = Written(writer);
        writer.WriteStartObject();
        writer.WriteNumber(IdName, member.Id);
        WriteNullableString(writer, NameName, member.Name);
        WriteNullableString(writer, DescriptionName, member.Description);
        WriteNullableString(writer, AddressName, member.Address);
        WriteDouble(writer, ValueName, member.Value);
        writer.WriteNumber(UpdateTimeName, member.UpdateTime);
        writer.WriteEndObject();
        return Commit(start);
    }

    public long WriteFooter(IBufferWriter<byte> output)
    {
        var writer = WriterFor(output);
        var start = Written(writer);
        if (_hasMembers)
        {
            writer.WriteEndArray();
        }

        writer.WriteEndObject();
        return Commit(start);
    }

    private static void WriteNullableString(Utf8JsonWriter writer, JsonEncodedText name, string? value)
    {
        if (value is null)
        {
            writer.WriteNull(name);
        }
        else
        {
            writer.WriteString(name, value);
        }
    }

    private static void WriteNullableString(Utf8JsonWriter writer, JsonEncodedText name, Utf8Text value)
    {
        if (value.IsNull)
        {
            writer.WriteNull(name);
        }
        else
        {
            writer.WriteString(name, value.Bytes);
        }
    }

    // JSON has no literal for NaN or the infinities; like JsonNumberHandling.AllowNamedFloatingPointLiterals,
    // they are written as the strings "NaN", "Infinity" and "-Infinity".
    private static void WriteDouble(Utf8JsonWriter writer, JsonEncodedText name, double value)
    {
        // A whole number below 10^15 (but not -0) prints as the same digits as the int64 it equals, and the int64
        // path skips the shortest-round-trip search, the largest part of writing a member whose value is whole.
        if (Math.Abs(value) < 1e15 && value == Math.Truncate(value) && !(value == 0 && double.IsNegative(value)))
        {
            writer.WriteNumber(name, (long)value);
        }
        else if (double.IsFinite(value))
        {
            writer.WriteNumber(name, value);
        }
        else
        {
            writer.WriteString(name, double.IsNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
        }
    }

    // Everything the writer has produced so far, committed to the output or not. JsonSerializer.Serialize
    // commits on its own, so the count must be taken before it runs, not only around our Flush.
    private static long Written(Utf8JsonWriter writer) => writer.BytesCommitted + writer.BytesPending;

    // The writer, now writing into `output`: it holds no memory of the previous output, as every call ends with Commit.
    private Utf8JsonWriter WriterFor(IBufferWriter<byte> output)
    {
        var writer = _writer ?? throw new InvalidOperationException("WriteHeader must come first.");
        _output.Target = output;
        return writer;
    }

    // Moves what the writer buffered into the output and says how much was written since start.
    private long Commit(long start)
    {
        _writer!.Flush();
        return _writer.BytesCommitted - start;
    }

    // What the writer is bound to: the output of the current call.
    private sealed class CurrentOutput : IBufferWriter<byte>
    {
        public IBufferWriter<byte> Target { get; set; } = null!;

        public void Advance(int count) => Target.Advance(count);

        public Memory<byte> GetMemory(int sizeHint = 0) => Target.GetMemory(sizeHint);

        public Span<byte> GetSpan(int sizeHint = 0) => Target.GetSpan(sizeHint);
    }
}
