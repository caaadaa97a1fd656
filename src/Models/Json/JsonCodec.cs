using System.Buffers;
using System.Text.Json;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Json;

/// <summary>
/// JSON: <c>{"id":1,"tags":[...],"members":[{...},...]}</c> with camelCase names, written with one
/// <see cref="Utf8JsonWriter"/> per payload. Members are written property by property with pre-encoded names:
/// the same bytes <see cref="ModelsJsonContext"/> produces (a test holds them equal), without a serializer call per
/// member; faster than System.Text.Json's serializer by the ratio of the rows "JSON stream" and "JSON byte[]" in
/// docs/results/benchmarks.md (<c>dotnet run -c Release --project tests/Benchmarks</c>).
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
