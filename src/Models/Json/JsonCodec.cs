using System.Buffers;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// JSON: <c>{"id":1,"tags":[...],"members":[{...},...]}</c> with camelCase names, written with one
/// <see cref="Utf8JsonWriter"/> per payload. Members are written property by property with pre-encoded names:
/// the same bytes <see cref="ModelsJsonContext"/> produces (a test holds them equal), without a serializer call per
/// member; about 1.9x System.Text.Json's serializer in tests/Benchmarks' rows "JSON stream" against "JSON byte[]"
/// (<c>dotnet run -c Release --project tests/Benchmarks</c>, docs/results/benchmarks.md).
/// </summary>
public sealed class JsonCodec : IWireFormatCodec, IUploadSummaryWriter
{
    /// <summary>The shared instance.</summary>
    public static JsonCodec Instance { get; } = new();

    /// <inheritdoc />
    public bool MemberCountComesFirst => false;

    /// <inheritdoc />
    public IOrganizationEncoder CreateEncoder() => new JsonOrganizationEncoder();

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits) => new JsonOrganizationDecoder(limits);

    /// <inheritdoc />
    public IOrganizationDecoder CreateDecoder(DecodeLimits limits, IOrganizationSink sink) => new JsonOrganizationDecoder(limits, sink);

    /// <summary>Writes the summary with System.Text.Json, as a camelCase object.</summary>
    public void WriteSummary(IBufferWriter<byte> output, UploadSummary summary)
    {
        using var writer = new Utf8JsonWriter(output);
        JsonSerializer.Serialize(writer, summary, ModelsJsonContext.Default.UploadSummary);
    }
}
