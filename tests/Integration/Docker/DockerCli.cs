namespace WebSerialization.IntegrationTests.Docker;

/// <summary>The <c>docker</c> command line, as a user types it: each call is one command, its output returned whole.</summary>
internal static class DockerCli
{
    /// <summary>Runs <c>docker</c> with <paramref name="arguments"/> and returns its standard output; a non-zero exit throws with what it wrote.</summary>
    public static async Task<string> RunAsync(params string[] arguments)
    {
        var (exitCode, output, error) = await TryRunAsync(arguments);
        return exitCode == 0
            ? output
            : throw new InvalidOperationException($"docker {string.Join(' ', arguments)} exited with {exitCode}:\n{error}{output}");
    }

    /// <summary>
    /// Runs <paramref name="fileName"/> (docker unless named) with <paramref name="arguments"/>, writing <paramref name="input"/>
    /// to its standard input, with <paramref name="environment"/> added to this process's variables.
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Error)> TryRunAsync(
        IReadOnlyList<string> arguments,
        string? input = null,
        string fileName = "docker",
        string? workingDirectory = null,
        TimeSpan? timeout = null,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(fileName, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = input is not null,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (input is not null)
        {
            await process.StandardInput.WriteAsync(input);
            process.StandardInput.Close();
        }

        using var limit = new CancellationTokenSource(timeout ?? TimeSpan.FromMinutes(10));
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{fileName} {string.Join(' ', arguments)} did not finish within {(timeout ?? TimeSpan.FromMinutes(10)).TotalSeconds} s.");
        }

        return (process.ExitCode, await output, await error);
    }

    /// <summary>The lines of <paramref name="text"/>, without empty ones.</summary>
    public static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
