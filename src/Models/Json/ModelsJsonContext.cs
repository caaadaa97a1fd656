using System.Text.Json;
using System.Text.Json.Serialization;

namespace WebSerialization.Models.Json;

/// <summary>
/// Source-generated System.Text.Json metadata for the model: camelCase names, and NaN/Infinity written as the
/// strings <c>"NaN"</c>, <c>"Infinity"</c>, <c>"-Infinity"</c> (JSON has no literal for them), so every double
/// round-trips.
/// </summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    MaxDepth = 8)]
[JsonSerializable(typeof(Organization))]
[JsonSerializable(typeof(Member))]
[JsonSerializable(typeof(string[]))]
[JsonSerializable(typeof(UploadSummary))]
public sealed partial class ModelsJsonContext : JsonSerializerContext;
