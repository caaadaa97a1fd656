namespace WebSerialization.IntegrationTests.Docker;

// The repository's Dockerfile built once for the Docker tests (DockerCollection) by a real Docker engine, as
// docker build . does. The base images are the local stand-ins of deploy/stand-in-images/build.sh (which also installs
// and starts the engine where it is missing, and builds the stand-ins of deploy/compose.yaml's other images); the
// build reaches NuGet through the host's network, since that is where this machine's NuGet route is.
public sealed class DockerImageFixture : IAsyncLifetime
{
    private readonly string _suffix = Guid.NewGuid().ToString("N")[..12];
    private HashSet<string>? _context;

    /// <summary>The repository root: the build context.</summary>
    public string ContextDirectory { get; } = RepositoryFolder.Root;

    public string Image => "webserialization-test:" + _suffix;

    public async Task InitializeAsync()
    {
        var standIns = await DockerCli.TryRunAsync(["deploy/stand-in-images/build.sh"], fileName: "bash", workingDirectory: ContextDirectory, timeout: TimeSpan.FromMinutes(15));
        Assert.True(standIns.ExitCode == 0, "deploy/stand-in-images/build.sh failed:\n" + standIns.Error + standIns.Output);
        var build = await DockerCli.TryRunAsync(["build", "--network", "host", "-t", Image, "."], workingDirectory: ContextDirectory, timeout: TimeSpan.FromMinutes(15));
        Assert.True(build.ExitCode == 0, "docker build failed:\n" + build.Output + build.Error);
    }

    /// <summary>
    /// The paths docker build's context holds, relative to the repository root, read from inside an image that copies
    /// the whole context: what .dockerignore leaves in, as the engine applies it.
    /// </summary>
    /// <param name="probes">Paths to create (empty) before the context is read where they do not exist yet, so that a
    /// check that one is left out can fail; the ones created are deleted again.</param>
    public async Task<IReadOnlySet<string>> ContextPathsAsync(IEnumerable<string> probes)
    {
        if (_context is not null)
        {
            return _context;
        }

        var created = new List<string>();
        var tag = "webserialization-context:" + _suffix;
        try
        {
            foreach (var probe in probes.Select(path => Path.Combine(ContextDirectory, path)).Where(path => !Path.Exists(path)))
            {
                Directory.CreateDirectory(Path.GetDirectoryName(probe)!);
                await File.WriteAllBytesAsync(probe, []);
                created.Add(probe);
            }

            var build = await DockerCli.TryRunAsync(["build", "--network", "none", "-q", "-t", tag, "-f", "-", "."],
                input: "FROM webserialization-stand-in/debian:bookworm\nCOPY . /context\n", workingDirectory: ContextDirectory);
            Assert.True(build.ExitCode == 0, "The context image did not build:\n" + build.Error);
            var listing = await DockerCli.RunAsync("run", "--rm", "--network", "none", tag, "find", "/context");
            _context = DockerCli.Lines(listing).Select(path => path == "/context" ? "." : path["/context/".Length..]).ToHashSet();
            return _context;
        }
        finally
        {
            await DockerCli.TryRunAsync(["rmi", "-f", tag]);
            created.ForEach(File.Delete);
        }
    }

    public async Task DisposeAsync() => await DockerCli.TryRunAsync(["rmi", "-f", Image]);
}
