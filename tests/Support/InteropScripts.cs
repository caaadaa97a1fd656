using System.ComponentModel;
using System.Diagnostics;
using System.Text;
using WebSerialization.Models;

namespace WebSerialization.Tests.Support;

/// <summary>
/// Runs tests/Interop's <c>decode.mjs</c>, <c>encode.mjs</c> and <c>grpc-client.mjs</c> with Node, which read and write each format with
/// libraries that share no code with ours. Their packages must be installed (<c>npm ci</c> in tests/Interop); when
/// they are not, the tests fail saying so rather than being skipped.
/// </summary>
public static class InteropScripts
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    private static readonly Lazy<string> InteropDirectory = new(() => Path.Combine(RepositoryFolder.Root, "tests", "Interop"));

    /// <summary>The schema file the scripts use unless given another.</summary>
    public static string SchemaPath => Path.Combine(InteropDirectory.Value, "organization.proto");

    /// <summary>Decodes <paramref name="payload"/> with the JavaScript library for <paramref name="format"/>.</summary>
    public static Organization Decode(string format, byte[] payload, string? schemaPath = null)
    {
        var payloadPath = Path.GetTempFileName();
        try
        {
            File.WriteAllBytes(payloadPath, payload);
            string[] arguments = schemaPath is null ? ["decode.mjs", format, payloadPath] : ["decode.mjs", format, payloadPath, schemaPath];
            return CanonicalOrganizationJson.Parse(RunNode(arguments));
        }
        finally
        {
            File.Delete(payloadPath);
        }
    }

    /// <summary>Encodes <paramref name="organization"/> with the JavaScript library for <paramref name="format"/>.</summary>
    public static byte[] Encode(string format, Organization organization)
    {
        var jsonPath = Path.GetTempFileName();
        var payloadPath = Path.GetTempFileName();
        try
        {
            File.WriteAllText(jsonPath, CanonicalOrganizationJson.Write(organization), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
            RunNode("encode.mjs", format, jsonPath, payloadPath);
            return File.ReadAllBytes(payloadPath);
        }
        finally
        {
            File.Delete(jsonPath);
            File.Delete(payloadPath);
        }
    }

    /// <summary>
    /// Calls the gRPC service at <paramref name="address"/> (host:port) with @grpc/grpc-js, from stubs built out of
    /// the schema at <paramref name="schemaPath"/>; <paramref name="method"/> is <c>unary</c> or <c>stream</c>.
    /// </summary>
    public static Organization CallGrpc(string schemaPath, string address, string method, int count) =>
        CanonicalOrganizationJson.Parse(RunNode("grpc-client.mjs", schemaPath, address, method, count.ToString(System.Globalization.CultureInfo.InvariantCulture)));

    private static string RunNode(params string[] arguments)
    {
        var directory = InteropDirectory.Value;
        foreach (var package in new[] { "protobufjs", "@msgpack/msgpack" })
        {
            if (!Directory.Exists(Path.Combine(directory, "node_modules", package)))
            {
                throw new InvalidOperationException($"The interop scripts' packages are not installed ({package} is missing): run npm ci in tests/Interop ({directory}).");
            }
        }

        var start = new ProcessStartInfo("node", arguments)
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        using var process = StartNode(start);

        // Both pipes are drained while node runs, so that neither can fill up and stall it.
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(Timeout))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"node {string.Join(' ', arguments)} did not finish within {Timeout.TotalSeconds} s.");
        }

        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"node {string.Join(' ', arguments)} exited with {process.ExitCode}: {errors.Result}");
        }

        return output.Result;
    }

    private static Process StartNode(ProcessStartInfo start)
    {
        try
        {
            return Process.Start(start) ?? throw new InvalidOperationException("node did not start.");
        }
        catch (Win32Exception e)
        {
            throw new InvalidOperationException("node is not on the PATH; the interop tests need Node 20 or later, then npm ci in tests/Interop.", e);
        }
    }
}
