namespace WebSerialization.Tests.Support;

/// <summary>The repository's folders, found from the test assembly's location, so tests read the files users read.</summary>
public static class RepositoryFolder
{
    /// <summary>The folder that holds WebSerialization.sln.</summary>
    public static string Root { get; } = Find();

    private static string Find()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "WebSerialization.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No WebSerialization.sln above {AppContext.BaseDirectory}.");
    }
}
