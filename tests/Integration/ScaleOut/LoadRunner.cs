using System.Diagnostics;
using System.Reflection;
using WebSerialization.Tests.Processes;
using WebSerialization.Tests.Support;

namespace WebSerialization.IntegrationTests.ScaleOut;

/// <summary>
/// The built load runner (tests/Load) as a process of its own, as one client machine runs it: the solution's build
/// of the same configuration as these tests.
/// </summary>
public static class LoadRunner
{
    /// <summary>Runs the runner with <paramref name="args"/> until it exits (at most two minutes); its output is kept.</summary>
    public static async Task<ScaleOutProcess> RunAsync(string name, IReadOnlyList<string> args)
    {
        var start = new ProcessStartInfo(DotnetHost.Path)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Assembly());
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var runner = ScaleOutProcess.Start(name, start);
        Assert.True(await runner.WaitForExitAsync(TimeSpan.FromMinutes(2)), $"{name} did not exit within two minutes.\n{runner.Transcript()}");
        return runner;
    }

    // tests/Load/bin/<configuration>/<framework>/, beside this assembly's tests/Integration/bin/<configuration>/<framework>/.
    private static string Assembly()
    {
        var configuration = typeof(LoadRunner).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()!.Configuration;
        var framework = new DirectoryInfo(AppContext.BaseDirectory).Name;
        var path = Path.Combine(RepositoryFolder.Root, "tests", "Load", "bin", configuration, framework, "WebSerialization.Load.dll");
        Assert.True(File.Exists(path), $"No load runner at {path}: build the solution ({configuration}) first.");
        return path;
    }
}
