using System.IO.Compression;

namespace WebSerialization.Api.Compression;

/// <summary>Configuration section <c>Compression</c>: response compression negotiated by <c>Accept-Encoding</c>.</summary>
public sealed class HttpCompressionOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "Compression";

    /// <summary>Whether responses are compressed when the client asks for br or gzip.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>
    /// Brotli's and gzip's level. Fastest, because a million-member body is compressed on every request (nothing
    /// is cached), so compression time is paid per download; see docs/compression.md for what it costs and saves.
    /// </summary>
    public CompressionLevel Level { get; set; } = CompressionLevel.Fastest;
}
