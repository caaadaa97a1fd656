using System.Runtime.InteropServices;

namespace WebSerialization.Benchmarks.Compression;

/// <summary>
/// The LZ4 block API of liblz4, the reference implementation (lz4/lz4, Debian package <c>liblz4-1</c>), which
/// K4os.Compression.LZ4, MessagePack-CSharp's LZ4, ports to C#. No LZ4 package can be restored from this project's
/// registry mirror, and LZ4 is not written by hand here: the system's library does the compressing.
/// </summary>
internal static partial class LibLz4
{
    /// <summary>The soname Debian's liblz4-1 installs (apt itself depends on it, so it is on every Debian machine).</summary>
    public const string LibraryName = "liblz4.so.1";

    /// <summary>What to install when the library is missing.</summary>
    public const string InstallHint = "install Debian's liblz4-1 (apt-get install liblz4-1)";

    // Null when the library cannot be loaded; loading is tried once.
    private static readonly Lazy<string?> VersionText = new(() =>
    {
        try
        {
            return Marshal.PtrToStringUTF8(VersionString()) ?? "unknown";
        }
        catch (DllNotFoundException)
        {
            return null;
        }
    });

    /// <summary>The library's version, e.g. 1.9.4; throws a <see cref="DllNotFoundException"/> that says what to install.</summary>
    public static string Version =>
        VersionText.Value ?? throw new DllNotFoundException($"{LibraryName} could not be loaded: {InstallHint}.");

    /// <summary>The library's version, or "not found" (for descriptions, which must not throw).</summary>
    public static string VersionOrNotFound => VersionText.Value ?? "not found";

    /// <summary>The largest block <see cref="Compress"/> can write for <paramref name="length"/> input bytes.</summary>
    public static int MaxCompressedLength(int length) => CompressBound(length);

    /// <summary>
    /// <c>LZ4_compress_default</c>: LZ4's fast compressor at acceleration 1, the level MessagePack-CSharp's
    /// <c>LZ4Codec.Encode</c> uses by default (K4os' L00_FAST). Returns the compressed length.
    /// </summary>
    public static int Compress(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        if (source.IsEmpty || destination.IsEmpty)
        {
            throw new ArgumentException("LZ4 blocks here are never empty.", nameof(source));
        }

        var written = CompressDefault(
            ref MemoryMarshal.GetReference(source), ref MemoryMarshal.GetReference(destination), source.Length, destination.Length);
        return written > 0
            ? written
            : throw new InvalidOperationException($"LZ4_compress_default could not compress {source.Length} bytes into {destination.Length}.");
    }

    /// <summary><c>LZ4_decompress_safe</c>: never reads or writes outside the two spans. Returns the decompressed length.</summary>
    public static int Decompress(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        if (source.IsEmpty || destination.IsEmpty)
        {
            throw new InvalidDataException("An LZ4 block or its target is empty.");
        }

        var written = DecompressSafe(
            ref MemoryMarshal.GetReference(source), ref MemoryMarshal.GetReference(destination), source.Length, destination.Length);
        return written >= 0
            ? written
            : throw new InvalidDataException($"A {source.Length}-byte LZ4 block is malformed or decompresses to more than {destination.Length} bytes.");
    }

    [LibraryImport(LibraryName, EntryPoint = "LZ4_versionString")]
    private static partial nint VersionString();

    [LibraryImport(LibraryName, EntryPoint = "LZ4_compressBound")]
    private static partial int CompressBound(int inputSize);

    [LibraryImport(LibraryName, EntryPoint = "LZ4_compress_default")]
    private static partial int CompressDefault(ref byte source, ref byte destination, int sourceSize, int maxDestinationSize);

    [LibraryImport(LibraryName, EntryPoint = "LZ4_decompress_safe")]
    private static partial int DecompressSafe(ref byte source, ref byte destination, int compressedSize, int maxDecompressedSize);
}
