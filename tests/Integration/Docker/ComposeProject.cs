using System.ComponentModel;
using System.Net.Sockets;

namespace WebSerialization.IntegrationTests.Docker;

// deploy/compose.yaml run as a user runs it, under a project name of its own: Compose v2 (docker compose) where the
// CLI has it, else Compose v1 (docker-compose, which deploy/stand-in-images/build.sh installs where neither is), with
// the compose file's variables set for this project only.
public sealed class ComposeProject
{
    private const string ProjectLabel = "com.docker.compose.project";

    private readonly string _fileName;
    private readonly string[] _command;
    private readonly IReadOnlyDictionary<string, string> _variables;

    private ComposeProject(string fileName, string[] command, IReadOnlyDictionary<string, string> variables)
    {
        _fileName = fileName;
        _command = command;
        _variables = variables;
    }

    /// <summary>The project's name (<c>-p</c>): the prefix of its containers', network's and volumes' names.</summary>
    public string Name { get; } = "webserialization-test-" + Guid.NewGuid().ToString("N")[..12];

    /// <summary>The command as typed, e.g. <c>docker-compose</c>.</summary>
    public string Command => string.Join(' ', [_fileName, .. _command]);

    /// <summary>A project of deploy/compose.yaml with <paramref name="variables"/>; fails when no Compose is installed.</summary>
    public static async Task<ComposeProject> CreateAsync(IReadOnlyDictionary<string, string> variables)
    {
        foreach (var (fileName, command) in new[] { ("docker", new[] { "compose" }), ("docker-compose", []) })
        {
            try
            {
                if ((await DockerCli.TryRunAsync([.. command, "version"], fileName: fileName)).ExitCode == 0)
                {
                    return new ComposeProject(fileName, command, variables);
                }
            }
            catch (Win32Exception)
            {
                // Not installed.
            }
        }

        throw new InvalidOperationException(
            "Neither `docker compose` (Compose v2) nor `docker-compose` (v1) runs here. deploy/stand-in-images/build.sh installs " +
            "Debian's docker-compose with apt-get where both are missing (it needs root); install either one.");
    }

    /// <summary>
    /// The first three numbers of a /24 in 172.28.0.0/16 that no Docker network overlaps, for the compose file's backend
    /// network, so that this project's fixed HAProxy address cannot collide with another run's.
    /// </summary>
    public static async Task<string> FreeSubnetPrefixAsync()
    {
        var ids = DockerCli.Lines(await DockerCli.RunAsync("network", "ls", "-q"));
        var used = DockerCli.Lines(await DockerCli.RunAsync(["network", "inspect", "-f", "{{range .IPAM.Config}}{{.Subnet}}\n{{end}}", .. ids]))
            .Select(subnet => IPNetwork.TryParse(subnet, out var network) ? network : (IPNetwork?)null)
            .OfType<IPNetwork>()
            .Where(network => network.BaseAddress.AddressFamily == AddressFamily.InterNetwork)
            .ToArray();
        foreach (var third in Enumerable.Range(1, 254).OrderBy(_ => Random.Shared.Next()))
        {
            var candidate = new IPNetwork(new IPAddress([172, 28, (byte)third, 0]), 24);
            if (!used.Any(network => network.Contains(candidate.BaseAddress) || candidate.Contains(network.BaseAddress)))
            {
                return $"172.28.{third}";
            }
        }

        throw new InvalidOperationException("Every /24 of 172.28.0.0/16 overlaps a Docker network: " + string.Join(", ", used));
    }

    /// <summary><c>up -d --no-build</c>: the images must exist; a failure throws with what Compose wrote.</summary>
    public async Task UpAsync()
    {
        var (exitCode, output) = await RunAsync("up", "-d", "--no-build");
        if (exitCode != 0)
        {
            throw new InvalidOperationException($"{Command} up exited with {exitCode}:\n{output}");
        }
    }

    /// <summary>What every service wrote, as <c>logs</c> prints it.</summary>
    public async Task<string> LogsAsync() => (await RunAsync("logs", "--no-color")).Output;

    /// <summary>
    /// The names of the volumes mounted into the project's containers (the images' anonymous volumes among them); none
    /// when the engine cannot say, so that a teardown that calls this always goes on to <see cref="DownAsync"/>.
    /// </summary>
    public async Task<string[]> VolumesAsync()
    {
        var containers = await DockerCli.TryRunAsync(["ps", "-a", "-q", "--filter", $"label={ProjectLabel}={Name}"]);
        if (containers.ExitCode != 0 || DockerCli.Lines(containers.Output).Length == 0)
        {
            return [];
        }

        var (exitCode, output, _) = await DockerCli.TryRunAsync(
            ["inspect", "-f", "{{range .Mounts}}{{if eq .Type \"volume\"}}{{.Name}}\n{{end}}{{end}}", .. DockerCli.Lines(containers.Output)]);
        return exitCode == 0 ? DockerCli.Lines(output) : [];
    }

    /// <summary><c>down -v --remove-orphans</c>: its exit code and output.</summary>
    public Task<(int ExitCode, string Output)> DownAsync() => RunAsync("down", "-v", "--remove-orphans");

    /// <summary>What of the project is still there: its containers and networks, and which of <paramref name="volumes"/> exist.</summary>
    public async Task<string[]> LeftoversAsync(IEnumerable<string> volumes)
    {
        var networks = DockerCli.Lines(await DockerCli.RunAsync("network", "ls", "-q", "--filter", $"label={ProjectLabel}={Name}"));
        List<string> left =
            [.. (await ContainersAsync()).Select(id => "container " + id), .. networks.Select(id => "network " + id)];
        foreach (var volume in volumes)
        {
            if ((await DockerCli.TryRunAsync(["volume", "inspect", volume])).ExitCode == 0)
            {
                left.Add("volume " + volume);
            }
        }

        return [.. left];
    }

    private async Task<string[]> ContainersAsync() =>
        DockerCli.Lines(await DockerCli.RunAsync("ps", "-a", "-q", "--filter", $"label={ProjectLabel}={Name}"));

    private async Task<(int ExitCode, string Output)> RunAsync(params string[] arguments)
    {
        var (exitCode, output, error) = await DockerCli.TryRunAsync(
            [.. _command, "-p", Name, "-f", "deploy/compose.yaml", .. arguments],
            fileName: _fileName,
            workingDirectory: RepositoryFolder.Root,
            timeout: TimeSpan.FromMinutes(3),
            environment: _variables);
        return (exitCode, error + output);
    }
}
