using System.Buffers;
using System.Text.Json;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Json;

/// <summary>
/// JSON: <c>{"id":1,"tags":[...],"members":[{...},...]}</c> with camelCase names. Each member is written by
/// System.Text.Json's source-generated serializer into one <see cref="Utf8JsonWriter"/> per payload.
/// </summary>
public sealed class JsonCodec : IWireFormatCodec
{
    /// <summary>The shared instance.</summary>
    public static JsonCodec Instance { get; } = new();

    /// <inheritdoc />
    public WireFormat Format => WireFormat.Json;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new Encoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new JsonOrganizationDecoder(limits);

    private sealed class Encoder : IOrganizationEncoder
    {
        private static readonly JsonEncodedText IdName = JsonEncodedText.Encode("id");
        private static readonly JsonEncodedText TagsName = JsonEncodedText.Encode("tags");
        private static readonly JsonEncodedText MembersName = JsonEncodedText.Encode("members");

        private Utf8JsonWriter? _writer;
        private bool _hasMembers;

        public long WriteHeader(IBufferWriter<byte> output, Organization organization, int memberCount)
        {
            // The writer is bound to the first output it sees; the stream writer passes the same one every time.
            _writer = new Utf8JsonWriter(output, new JsonWriterOptions { SkipValidation = true });
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
            var writer = _writer ?? throw new InvalidOperationException("WriteHeader must come first.");
            var start = Written(writer);
            foreach (var member in members)
            {
                JsonSerializer.Serialize(writer, member, ModelsJsonContext.Default.Member);
            }

            return Commit(start);
        }

        public long WriteFooter(IBufferWriter<byte> output)
        {
            var writer = _writer ?? throw new InvalidOperationException("WriteHeader must come first.");
            var start = Written(writer);
            if (_hasMembers)
            {
                writer.WriteEndArray();
            }

            writer.WriteEndObject();
            return Commit(start);
        }

        // Everything the writer has produced so far, committed to the output or not. JsonSerializer.Serialize
        // commits on its own, so the count must be taken before it runs, not only around our Flush.
        private static long Written(Utf8JsonWriter writer) => writer.BytesCommitted + writer.BytesPending;

        // Moves what the writer buffered into the output and says how much was written since start.
        private long Commit(long start)
        {
            _writer!.Flush();
            return _writer.BytesCommitted - start;
        }
    }
}
