using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using WebSerialization.IntegrationTests.Docker;
using WebSerialization.Tests.Processes;
using Xunit.Abstractions;

namespace WebSerialization.IntegrationTests;

// The image the Dockerfile builds, built by a real Docker engine and run as docker run runs it: what a user
// checks (health, every format, uploads, Swagger UI, the user it runs as, docker stop inside its grace, memory
// under a limit). The base images are the local stand-ins of deploy/stand-in-images (docs/docker.md).
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed partial class DockerImageTests(DockerImageFixture fixture, ITestOutputHelper output)
{
    private const string RequestLogCategory = "WebSerialization.Api.Diagnostics.RequestLogMiddleware";

    private static readonly string[] LeftOut =
    [
        "src/Api/bin/Release/net10.0/WebSerialization.Api.dll",
        "src/Api/obj/project.assets.json",
        "src/Models/obj/Release/net10.0/WebSerialization.Models.dll",
        "tests/Integration/bin/Debug/net10.0/WebSerialization.IntegrationTests.dll",
        "tests/Interop/node_modules/protobufjs/index.js",
        "reports/download.md",
        "TestResults/run.trx",
        "BenchmarkDotNet.Artifacts/results/report.csv",
        ".git/HEAD",
    ];

    public static TheoryData<string> LeftOutPaths => [.. LeftOut];

    [Fact]
    public void PinsTheSdkOfGlobalJsonAndAnAspNetCoreRuntimeOfTheTargetFramework()
    {
        using var globalJson = JsonDocument.Parse(File.ReadAllText(Path.Combine(fixture.ContextDirectory, "global.json")));
        var sdk = globalJson.RootElement.GetProperty("sdk").GetProperty("version").GetString();
        var targetFramework = TargetFramework().Match(File.ReadAllText(Path.Combine(fixture.ContextDirectory, "Directory.Build.props"))).Groups[1].Value;
        var baseImages = File.ReadAllLines(Path.Combine(fixture.ContextDirectory, "Dockerfile"))
            .Where(line => line.StartsWith("FROM ", StringComparison.Ordinal))
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1])
            .ToArray();

        Assert.Equal(2, baseImages.Length);
        Assert.Equal($"mcr.microsoft.com/dotnet/sdk:{sdk}", baseImages[0]);
        Assert.Matches($@"^mcr\.microsoft\.com/dotnet/aspnet:{Regex.Escape(targetFramework)}\.\d+$", baseImages[1]);
    }

    [Fact]
    public async Task RunsAsTheNonRootAppUserOnPort8080WithTheAppInItsWorkingDirectory()
    {
        var config = (await DockerCli.RunAsync("image", "inspect", "-f",
            "{{.Config.User}}|{{json .Config.ExposedPorts}}|{{.Config.WorkingDir}}|{{json .Config.Entrypoint}}", fixture.Image)).Trim().Split('|');
        Assert.Equal("1654", config[0]);
        Assert.Contains("\"8080/tcp\"", config[1], StringComparison.Ordinal);
        Assert.Contains("\"8081/tcp\"", config[1], StringComparison.Ordinal);
        Assert.Equal("/app", config[2]);
        Assert.Equal("[\"dotnet\",\"WebSerialization.Api.dll\"]", config[3]);

        await using var app = await DockerContainer.StartAsync(fixture.Image);
        Assert.Equal("1654", (await app.ExecAsync("id", "-u")).Trim());
        var environment = DockerCli.Lines(await app.ExecAsync("env"));
        Assert.Contains("ASPNETCORE_HTTP_PORTS=8080", environment);
        Assert.Contains("ASPNETCORE_ENVIRONMENT=Production", environment);
        foreach (var file in new[] { "WebSerialization.Api.dll", "appsettings.Production.json", "wwwroot/index.html", "wwwroot/js/webserialization-binary.mjs" })
        {
            Assert.Equal(0, (await DockerCli.TryRunAsync(["exec", app.Id, "test", "-f", "/app/" + file])).ExitCode);
        }
    }

    [Theory]
    [MemberData(nameof(LeftOutPaths))]
    public async Task KeepsBuildOutputsAndReportsOutOfTheBuildContext(string path)
    {
        var context = await fixture.ContextPathsAsync(LeftOut);

        Assert.DoesNotContain(path, context);
    }

    [Theory]
    [InlineData("src/Api/Program.cs")]
    [InlineData("src/Api/appsettings.Production.json")]
    [InlineData("src/Api/wwwroot/index.html")]
    [InlineData("src/Models/WebSerialization.Models.csproj")]
    [InlineData("global.json")]
    [InlineData("Directory.Packages.props")]
    public async Task KeepsTheSourcesInTheBuildContext(string path)
    {
        var context = await fixture.ContextPathsAsync(LeftOut);

        Assert.Contains(path, context);
    }

    [Fact]
    public async Task ServesAMillionMembersInEveryFormatTakesThemBackConvertsThemAndServesSwaggerAndThePage()
    {
        var expected = OrganizationGenerator.Create(OrganizationGenerator.ArticleMemberCount);
        var checksum = OrganizationChecksum.Compute(expected);
        await using var app = await DockerContainer.StartAsync(fixture.Image);
        output.WriteLine($"/healthz answered {(await app.WaitUntilHealthyAsync()).TotalSeconds:0.00} s after docker run returned.");
        var downloads = new Dictionary<WireFormat, byte[]>();
        foreach (var format in WireFormat.All)
        {
            var stopwatch = Stopwatch.StartNew();
            using var response = await app.Client.GetAsync($"/api/organization?format={format.Key}");
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(format.MediaType, response.Content.Headers.ContentType?.MediaType);
            var body = downloads[format] = await response.Content.ReadAsByteArrayAsync();
            output.WriteLine($"{format.Key}: {body.Length:N0} bytes in {stopwatch.ElapsedMilliseconds} ms");
            var (organization, bytes) = await OrganizationAssert.DecodeAsync(new MemoryStream(body), format);
            Assert.Equal(body.Length, bytes);
            OrganizationAssert.Equal(expected, OrganizationGenerator.ArticleMemberCount, organization);

            using var upload = new ByteArrayContent(body) { Headers = { ContentType = new MediaTypeHeaderValue(format.MediaType) } };
            using var uploaded = await app.Client.PostAsync("/api/organization", upload);
            Assert.Equal(HttpStatusCode.OK, uploaded.StatusCode);
            var summary = await HttpPayloads.ReadSummaryAsync(uploaded);
            Assert.Equal(OrganizationGenerator.ArticleMemberCount, summary.MemberCount);
            Assert.Equal(checksum, summary.Checksum);
        }

        // A conversion holds its answer in a temporary file, so the non-root user must be able to write one.
        using var json = new ByteArrayContent(downloads[WireFormat.Json]) { Headers = { ContentType = new MediaTypeHeaderValue(WireFormat.Json.MediaType) } };
        using var converted = await app.Client.PostAsync($"/api/organization/convert?format={WireFormat.Protobuf.Key}", json);
        Assert.Equal(HttpStatusCode.OK, converted.StatusCode);
        Assert.Equal(downloads[WireFormat.Protobuf], await converted.Content.ReadAsByteArrayAsync());

        using var swagger = await app.Client.GetAsync("/swagger/index.html");
        Assert.Equal(HttpStatusCode.OK, swagger.StatusCode);
        using var page = await app.Client.GetAsync("/");
        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal("text/html", page.Content.Headers.ContentType?.MediaType);

        // appsettings.Production.json switches the MVC baseline off.
        using var baseline = await app.Client.GetAsync("/api/mvc/organization?count=10");
        Assert.Equal(HttpStatusCode.NotFound, baseline.StatusCode);

        await StopWithinGraceAsync(app);
        var entries = await app.LogEntriesAsync();
        Assert.Contains(entries, entry => entry.GetProperty("Message").GetString() == "Hosting environment: Production");

        // Production leaves the access line off: a success writes nothing, a refusal writes one Warning line.
        Assert.DoesNotContain(entries, entry => IsRequestLog(entry, 1));
        Assert.Single(entries, entry => IsRequestLog(entry, 3)
            && entry.GetProperty("LogLevel").GetString() == "Warning"
            && entry.GetProperty("Message").GetString()!.StartsWith("GET /api/mvc/organization?count=10 404 ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WritesOneCompactAccessLinePerRequestWhenTheAccessLogIsOn()
    {
        var sizes = new Dictionary<string, int>();
        await using var app = await DockerContainer.StartAsync(fixture.Image, new Dictionary<string, string> { [$"Logging__LogLevel__{RequestLogCategory}"] = "Information" });
        await app.WaitUntilHealthyAsync();
        foreach (var format in WireFormat.All)
        {
            using var response = await app.Client.GetAsync($"/api/organization?count=10&format={format.Key}");
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            sizes[format.Key] = (await response.Content.ReadAsByteArrayAsync()).Length;
        }

        await StopWithinGraceAsync(app);
        var entries = await app.LogEntriesAsync();
        foreach (var (key, size) in sizes)
        {
            // One JSON line per request, every field once (in the message) and no scopes.
            var line = Assert.Single(entries, entry => IsRequestLog(entry, 1)
                && entry.GetProperty("Message").GetString()!.StartsWith(
                    string.Create(CultureInfo.InvariantCulture, $"GET /api/organization?count=10&format={key} 200 {key} identity {size} bytes in "), StringComparison.Ordinal));
            Assert.False(line.TryGetProperty("State", out _), line.GetRawText());
            Assert.False(line.TryGetProperty("Scopes", out _), line.GetRawText());
        }
    }

    // The image's settings are the correct ones, so nothing at start or stop should read as a problem to an operator
    // (Kestrel warns when declared endpoints override hosting URLs left set; the gRPC endpoints declare them).
    [Fact]
    public async Task StartsAndStopsWithoutAWarning()
    {
        await using var app = await DockerContainer.StartAsync(fixture.Image);
        await app.WaitUntilHealthyAsync();
        await StopWithinGraceAsync(app);

        var entries = await app.LogEntriesAsync();
        Assert.Contains(entries, entry => entry.GetProperty("Message").GetString() == "Now listening on: http://[::]:8080");
        Assert.DoesNotContain(entries, entry => entry.GetProperty("LogLevel").GetString() is "Warning" or "Error" or "Critical");
    }

    [Fact]
    public async Task FinishesADownloadInFlightWhenStopped()
    {
        await using var app = await DockerContainer.StartAsync(fixture.Image);
        await app.WaitUntilHealthyAsync();
        using var response = await app.Client.GetAsync("/api/organization?format=binary", HttpCompletionOption.ResponseHeadersRead);
        await using var body = await response.Content.ReadAsStreamAsync();
        var received = new MemoryStream();
        var head = new byte[64 * 1024];
        await body.ReadExactlyAsync(head);
        received.Write(head);

        var stop = StopWithinGraceAsync(app);
        await body.CopyToAsync(received);
        await stop;

        received.Position = 0;
        var (organization, _) = await OrganizationAssert.DecodeAsync(received, WireFormat.Binary);
        Assert.Equal(OrganizationGenerator.ArticleMemberCount, organization.Members!.Count);
    }

    [Fact]
    public async Task StopsWithinDockerStopsGraceWhileAClientStallsADownload()
    {
        await using var app = await DockerContainer.StartAsync(fixture.Image);
        await app.WaitUntilHealthyAsync();
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, app.BaseAddress.Port);
        await socket.SendAsync(Encoding.ASCII.GetBytes("GET /api/organization?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
        var buffer = new byte[64 * 1024];
        var read = 0;
        while (read < buffer.Length)
        {
            var n = await socket.ReceiveAsync(buffer.AsMemory(read), SocketFlags.None);
            Assert.NotEqual(0, n);
            read += n;
        }

        // The client now reads nothing more: the download can neither finish nor fail until the server gives up on it.
        await StopWithinGraceAsync(app);

        Assert.True(
            (await app.LogEntriesAsync()).Any(entry => IsRequestLog(entry, 2)
                && entry.GetProperty("LogLevel").GetString() == "Warning"
                && entry.GetProperty("Message").GetString()!.StartsWith("GET /api/organization?format=json ", StringComparison.Ordinal)),
            $"The stalled download was not logged as aborted.\n{await app.TranscriptAsync()}");
    }

    [Fact]
    public async Task TakesFourConcurrentMillionMemberUploadsInHalfAGigabyte()
    {
        // The four come from one address, and one client's default share of heavy requests is two.
        await using var app = await DockerContainer.StartAsync(fixture.Image, new Dictionary<string, string> { ["Limits__MaxHeavyRequestsPerClient"] = "4" }, "--memory=512m");
        await app.WaitUntilHealthyAsync();
        var payload = await HttpPayloads.DownloadAsync(app.Client, WireFormat.MessagePack, OrganizationGenerator.ArticleMemberCount);
        var uploads = Enumerable.Range(0, 4).Select(async _ =>
        {
            using var content = new ByteArrayContent(payload) { Headers = { ContentType = new MediaTypeHeaderValue(WireFormat.MessagePack.MediaType) } };
            using var response = await app.Client.PostAsync("/api/organization", content);
            return (response.StatusCode, (await HttpPayloads.ReadSummaryAsync(response)).MemberCount);
        });

        foreach (var (status, members) in await Task.WhenAll(uploads))
        {
            Assert.Equal(HttpStatusCode.OK, status);
            Assert.Equal(OrganizationGenerator.ArticleMemberCount, members);
        }

        var peak = await app.PeakMemoryBytesAsync();
        output.WriteLine($"Peak memory of the container: {peak / (1024.0 * 1024.0):0.0} MiB of 512.");
        Assert.False((await app.StateAsync()).OomKilled);
        Assert.True(peak < 512L * 1024 * 1024, $"The container peaked at {peak} bytes.");
    }

    private async Task StopWithinGraceAsync(DockerContainer app)
    {
        var took = await app.StopAsync();
        output.WriteLine($"docker stop took {took.TotalSeconds:0.00} s.");
        var (exitCode, _) = await app.StateAsync();

        // Killed at the end of the grace, the app would exit with 137 (SIGKILL).
        Assert.True(exitCode == 0 && took < DockerContainer.StopGrace, $"Exit code {exitCode} after {took.TotalSeconds:0.00} s.\n{await app.TranscriptAsync()}");
        var (stdout, errors) = await app.LogsAsync();
        Assert.Empty(errors);
        var failures = ApiLogLines.Errors(stdout);
        Assert.True(failures.Count == 0, "The app logged errors:\n" + string.Join('\n', failures));
    }

    // The request log's entries: 1 the access line, 2 an aborted request, 3 a refusal.
    private static bool IsRequestLog(JsonElement entry, int eventId) =>
        entry.GetProperty("Category").GetString() == RequestLogCategory && entry.GetProperty("EventId").GetInt32() == eventId;

    [GeneratedRegex("<TargetFramework>net([0-9.]+)</TargetFramework>")]
    private static partial Regex TargetFramework();
}
