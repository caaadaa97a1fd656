namespace WebSerialization.IntegrationTests.Docker;

/// <summary>
/// Replays the repository's Dockerfile once for a test class: the build stage's restore and publish run in a
/// temporary folder from a copy of the build context, and the runtime stage's files are what the tests start.
/// </summary>
public sealed class PublishedImageFixture : IAsyncLifetime
{
    private readonly string _workDirectory = Path.Combine(Path.GetTempPath(), "webserialization-image-" + Guid.NewGuid().ToString("N"));

    /// <summary>The repository root: the build context.</summary>
    public string ContextDirectory { get; } = FindRepositoryRoot();

    /// <summary>The Dockerfile, as read.</summary>
    public DockerfileRecipe Recipe { get; private set; } = null!;

    /// <summary>The replayed image.</summary>
    public ReplayedImage Image { get; private set; } = null!;

    /// <summary>What the replay ran, for a test's output.</summary>
    public List<string> ReplayLog { get; } = [];

    public async Task InitializeAsync()
    {
        Recipe = DockerfileRecipe.Load(Path.Combine(ContextDirectory, "Dockerfile"));
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(10));
        Image = await new DockerfileReplay(ContextDirectory, _workDirectory, ReplayLog.Add).BuildAsync(Recipe, timeout.Token);
    }

    public Task DisposeAsync()
    {
        if (Directory.Exists(_workDirectory))
        {
            Directory.Delete(_workDirectory, recursive: true);
        }

        return Task.CompletedTask;
    }

    private static string FindRepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Dockerfile")) && File.Exists(Path.Combine(directory.FullName, "WebSerialization.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No Dockerfile beside WebSerialization.sln above {AppContext.BaseDirectory}.");
    }
}
