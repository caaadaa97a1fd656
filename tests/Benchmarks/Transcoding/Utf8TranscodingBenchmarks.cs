using System.Text.Unicode;
using BenchmarkDotNet.Attributes;

namespace WebSerialization.Benchmarks.Transcoding;

/// <summary>
/// <c>--transcoding</c>: the encoders' <c>Utf8Transcoder</c> against <see cref="Utf8.FromUtf16"/>,
/// which it stands in for, on every text of the members in member order, into one buffer (<see cref="Comparison"/>).
/// </summary>
[MemoryDiagnoser]
public class Utf8TranscodingBenchmarks
{
    private string[] _texts = [];
    private byte[] _buffer = [];

    /// <summary><c>--transcoding</c>, and its page.</summary>
    public static Comparison Comparison { get; } = new(
        "--transcoding",
        typeof(Utf8TranscodingBenchmarks),
        "utf8-transcoding.md",
        "UTF-16 to UTF-8: the encoders' transcoder against Utf8.FromUtf16",
        "`Transcoding/Utf8TranscodingBenchmarks.cs` says what each row runs",
        string.Create(CultureInfo.InvariantCulture, $"the Name, Description and Address of `OrganizationGenerator.Create({OrganizationGenerator.ArticleMemberCount:N0})`'s members, in member order"),
        [
            "- **Library**: `Utf8.FromUtf16(text, buffer, out _, out written, replaceInvalidSequences: true)` for each text: the library call the transcoder stands in for.",
            "- **Ours**: `Utf8Transcoder.Write(text, buffer)` for each text, as every encoder but JSON's calls it (src/Models/Codecs/Utf8Transcoder.cs).",
        ]);

    [GlobalSetup]
    public void SetUp()
    {
        var members = OrganizationGenerator.Create(BenchmarkCommandLine.BenchmarkMemberCount).Members!;
        _texts = [.. members.SelectMany(member => new[] { member.Name!, member.Description!, member.Address! })];
        _buffer = new byte[3 * _texts.Max(text => text.Length)];
    }

    [Benchmark(Baseline = true)]
    public long Library()
    {
        long written = 0;
        foreach (var text in _texts)
        {
            Utf8.FromUtf16(text, _buffer, out _, out var bytes, replaceInvalidSequences: true);
            written += bytes;
        }

        return written;
    }

    [Benchmark]
    public long Ours()
    {
        long written = 0;
        foreach (var text in _texts)
        {
            written += Utf8Transcoder.Write(text, _buffer);
        }

        return written;
    }
}
