namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// docs/performance.md is shared: the load test writes its own section. This program owns only the text between
/// <see cref="StartMarker"/> and <see cref="EndMarker"/>; a re-run replaces that text and leaves the rest alone.
/// </summary>
public static class PerformanceDocument
{
    public const string StartMarker = "<!-- benchmarks:start -->";
    public const string EndMarker = "<!-- benchmarks:end -->";

    /// <summary>Puts <paramref name="section"/> between the markers of <paramref name="path"/>, creating the file or the markers if missing.</summary>
    public static void WriteSection(string path, string section)
    {
        ArgumentNullException.ThrowIfNull(section);
        var block = $"{StartMarker}\n{section.TrimEnd()}\n{EndMarker}";
        if (!File.Exists(path))
        {
            File.WriteAllText(path, $"# Performance\n\n{block}\n");
            return;
        }

        var text = File.ReadAllText(path);
        var start = text.IndexOf(StartMarker, StringComparison.Ordinal);
        var end = start < 0 ? -1 : text.IndexOf(EndMarker, start, StringComparison.Ordinal);
        text = start >= 0 && end >= 0
            ? string.Concat(text.AsSpan(0, start), block, text.AsSpan(end + EndMarker.Length))
            : $"{text.TrimEnd()}\n\n{block}\n";
        File.WriteAllText(path, text);
    }
}
