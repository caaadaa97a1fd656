namespace WebSerialization.Benchmarks;

/// <summary>Where the repository is, wherever <c>dotnet run</c> was started from.</summary>
public static class RepositoryPaths
{
    /// <summary>The folder that holds WebSerialization.sln (the current folder if none is found above it).</summary>
    public static string Root { get; } = FindRoot();

    /// <summary>BenchmarkDotNet's artifacts (git-ignored).</summary>
    public static string Artifacts => Path.Combine(Root, "BenchmarkDotNet.Artifacts");

    /// <summary>The performance document, shared with the load test.</summary>
    public static string PerformanceDocument => Path.Combine(Root, "docs", "performance.md");

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
