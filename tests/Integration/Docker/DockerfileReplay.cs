using System.Diagnostics;
using WebSerialization.Tests.Processes;
namespace WebSerialization.IntegrationTests.Docker;

/// <summary>
/// Replays a Dockerfile's stages on this machine, without a Docker engine: each stage's file system is a host
/// folder, COPY copies from the build context (minus <c>.dockerignore</c>) or an earlier stage, RUN runs its
/// <c>dotnet</c> command with the container's absolute paths mapped into the stage's folder, and the last stage's
/// WORKDIR, ENV, EXPOSE, USER and ENTRYPOINT are what <see cref="ReplayedImage"/> reports. A RUN that is not a
/// plain <c>dotnet</c> command, or an instruction that would change the result and is not replayed, fails.
/// </summary>
public sealed class DockerfileReplay(string contextDirectory, string workDirectory, Action<string> log)
{
    private static readonly string[] NotReplayed = ["ARG", "ADD", "ONBUILD", "SHELL", "VOLUME"];

    private readonly DockerIgnore _ignore = DockerIgnore.Load(Path.Combine(contextDirectory, ".dockerignore"));
    private readonly Dictionary<string, string> _stageRoots = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Replays every stage in order and describes the final one.</summary>
    public async Task<ReplayedImage> BuildAsync(DockerfileRecipe recipe, CancellationToken cancellationToken)
    {
        ReplayedImage? image = null;
        for (var index = 0; index < recipe.Stages.Count; index++)
        {
            image = await ReplayStageAsync(recipe.Stages[index], index, cancellationToken);
        }

        return image!;
    }

    private async Task<ReplayedImage> ReplayStageAsync(DockerStage stage, int index, CancellationToken cancellationToken)
    {
        var root = Path.Combine(workDirectory, $"stage{index}-{stage.Name ?? "unnamed"}");
        Directory.CreateDirectory(root);
        _stageRoots[stage.Name ?? index.ToString(System.Globalization.CultureInfo.InvariantCulture)] = root;

        var workingDirectory = "/";
        var environment = new Dictionary<string, string>(StringComparer.Ordinal);
        var exposed = new List<string>();
        string[]? entrypoint = null;
        string? user = null;
        foreach (var instruction in stage.Instructions)
        {
            Assert.DoesNotContain(instruction.Keyword, NotReplayed);
            switch (instruction.Keyword)
            {
                case "WORKDIR":
                    workingDirectory = ContainerPath(workingDirectory, instruction.Arguments);
                    Directory.CreateDirectory(HostPath(root, workingDirectory));
                    break;
                case "ENV":
                    foreach (var (key, value) in DockerfileRecipe.Environment(new DockerStage(stage.BaseImage, stage.Name, [instruction])))
                    {
                        environment[key] = value;
                    }

                    break;
                case "COPY":
                    Copy(instruction, root, workingDirectory);
                    break;
                case "RUN":
                    await RunAsync(instruction, root, workingDirectory, environment, cancellationToken);
                    break;
                case "EXPOSE":
                    exposed.AddRange(instruction.Arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries));
                    break;
                case "USER":
                    user = instruction.Arguments;
                    break;
                case "ENTRYPOINT":
                    entrypoint = DockerfileRecipe.ExecForm(instruction);
                    Assert.True(entrypoint is { Length: > 0 }, $"Dockerfile line {instruction.Line}: ENTRYPOINT must be the exec form, so that the app is PID 1 and gets SIGTERM.");
                    break;
                default:
                    // LABEL, CMD, HEALTHCHECK, STOPSIGNAL: metadata that does not change the published files.
                    break;
            }
        }

        return new ReplayedImage(root, HostPath(root, workingDirectory), entrypoint ?? [], environment, exposed, user);
    }

    private void Copy(DockerInstruction instruction, string root, string workingDirectory)
    {
        var words = instruction.Arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var from = words.Where(word => word.StartsWith("--from=", StringComparison.Ordinal)).Select(word => word["--from=".Length..]).SingleOrDefault();
        var paths = words.Where(word => !word.StartsWith("--", StringComparison.Ordinal)).ToArray();
        Assert.True(paths.Length >= 2, $"Dockerfile line {instruction.Line}: COPY needs a source and a destination.");
        var sources = paths[..^1];
        var destination = ContainerPath(workingDirectory, paths[^1]);
        var intoFolder = paths[^1].EndsWith('/') || paths[^1] is "." or "./" || sources.Length > 1;
        Assert.True(sources.All(source => source.IndexOfAny(['*', '?', '[']) < 0), $"Dockerfile line {instruction.Line}: COPY wildcards are not replayed; name the paths.");

        foreach (var source in sources)
        {
            var (sourceRoot, relative) = from is null
                ? (contextDirectory, source.Trim('/'))
                : (_stageRoots[from], source.TrimStart('/'));
            var sourcePath = Path.Combine(sourceRoot, relative);
            if (Directory.Exists(sourcePath))
            {
                // A folder's contents go into the destination folder.
                CopyFolder(sourcePath, HostPath(root, destination), relative, from is null);
            }
            else
            {
                Assert.True(File.Exists(sourcePath), $"Dockerfile line {instruction.Line}: COPY source '{source}' does not exist.");
                Assert.False(from is null && _ignore.Excludes(relative), $"Dockerfile line {instruction.Line}: '{source}' is left out of the context by .dockerignore.");
                var target = intoFolder ? Path.Combine(HostPath(root, destination), Path.GetFileName(sourcePath)) : HostPath(root, destination);
                Directory.CreateDirectory(Path.GetDirectoryName(target)!);
                File.Copy(sourcePath, target, overwrite: true);
            }
        }
    }

    private void CopyFolder(string source, string target, string contextRelative, bool fromContext)
    {
        Directory.CreateDirectory(target);
        foreach (var file in Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(source, file);
            if (fromContext && _ignore.Excludes(Path.Combine(contextRelative, relative)))
            {
                continue;
            }

            var destination = Path.Combine(target, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
            File.Copy(file, destination, overwrite: true);
        }
    }

    private async Task RunAsync(DockerInstruction instruction, string root, string workingDirectory, IReadOnlyDictionary<string, string> environment, CancellationToken cancellationToken)
    {
        var words = DockerfileRecipe.ExecForm(instruction) ?? instruction.Arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(words.Length > 1 && words[0] == "dotnet", $"Dockerfile line {instruction.Line}: only `dotnet ...` RUN lines are replayed; got '{instruction.Arguments}'.");
        Assert.True(words.All(word => word.IndexOfAny(['"', '\'', '$', ';', '|', '&', '`', '>', '<']) < 0), $"Dockerfile line {instruction.Line}: shell syntax is not replayed; got '{instruction.Arguments}'.");

        var start = new ProcessStartInfo(DotnetHost.Path)
        {
            WorkingDirectory = HostPath(root, workingDirectory),
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var word in words.Skip(1))
        {
            start.ArgumentList.Add(MapPaths(root, word));
        }

        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        // In a container, build servers die with the RUN step. Here they would outlive it holding this process's
        // output pipes open, so they are switched off for the replay (environment, not a change to the command).
        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        start.Environment["DOTNET_CLI_USE_MSBUILD_SERVER"] = "0";
        start.Environment["UseSharedCompilation"] = "false";
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";

        log($"RUN (line {instruction.Line}) in {start.WorkingDirectory}: dotnet {string.Join(' ', start.ArgumentList)}");
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        Assert.True(process.ExitCode == 0, $"Dockerfile line {instruction.Line} failed with exit code {process.ExitCode}:\n{await stdout}\n{await stderr}");
    }

    // An absolute container path in a RUN argument (`/app`, or `-o=/app`, `-p:X=/app`) becomes the stage folder's path.
    private static string MapPaths(string root, string word)
    {
        if (word.StartsWith('/'))
        {
            return HostPath(root, word);
        }

        var equals = word.IndexOf("=/", StringComparison.Ordinal);
        return equals < 0 ? word : word[..(equals + 1)] + HostPath(root, word[(equals + 1)..]);
    }

    private static string ContainerPath(string workingDirectory, string path) =>
        path.StartsWith('/') ? path : Path.GetFullPath(Path.Combine(workingDirectory, path));

    private static string HostPath(string root, string containerPath) => Path.GetFullPath(Path.Combine(root, containerPath.TrimStart('/')));
}
