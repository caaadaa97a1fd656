namespace WebSerialization.Benchmarks;

/// <summary>Where the repository is, wherever <c>dotnet run</c> was started from.</summary>
public static class RepositoryPaths
{
    /// <summary>The folder that holds WebSerialization.sln (the current folder if none is found above it).</summary>
    public static string Root { get; } = FindRoot();

    /// <summary>BenchmarkDotNet's artifacts (git-ignored).</summary>
    public static string Artifacts => Path.Combine(Root, "BenchmarkDotNet.Artifacts");

    /// <summary>The results of the last full run, generated (docs/performance.md links to it).</summary>
    public static string ResultsDocument => Path.Combine(Root, "docs", "results", "benchmarks.md");

    /// <summary>The last <c>--readers</c> run on the seed's members, generated (the MessagePack decoder's summary points to it).</summary>
    public static string ReaderResultsDocument => Path.Combine(Root, "docs", "results", "messagepack-reader.md");

    private static string FindRoot()
    {
        foreach (var start in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
        {
            for (var folder = new DirectoryInfo(start); folder is not null; folder = folder.Parent)
            {
                if (File.Exists(Path.Combine(folder.FullName, "WebSerialization.sln")))
                {
                    return folder.FullName;
                }
            }
        }

        return Directory.GetCurrentDirectory();
    }
}
