using System.Globalization;
using System.Net.Http.Headers;
using WebSerialization.Models;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// One NBomber-style scenario: one kind of request, in one format, with one payload size, repeated by every copy.
/// </summary>
/// <param name="Kind">Download, upload or convert.</param>
/// <param name="Format">The format downloaded, uploaded, or converted to.</param>
/// <param name="MemberCount">Members in the payload.</param>
/// <param name="Endpoint">The streamed endpoint, or the MVC baseline (scenario names <c>baseline-...</c>).</param>
public sealed record LoadScenario(ScenarioKind Kind, WireFormat Format, int MemberCount, ScenarioEndpoint Endpoint = ScenarioEndpoint.Streamed)
{
    public const string OrganizationPath = "/api/organization";
    public const string ConvertPath = "/api/organization/convert";

    /// <summary>The name used on screen, in report file names and by <c>--scenarios</c>.</summary>
    public string Name => BaselineScenarios.NamePrefix(Endpoint) + Kind switch
    {
        ScenarioKind.Download => $"download-{Format.Key}-{Count}",
        ScenarioKind.Upload => $"upload-{Format.Key}-{Count}",
        ScenarioKind.GrpcUnary or ScenarioKind.GrpcStream => GrpcScenarios.Name(this),
        _ => $"convert-json-to-{Format.Key}-{Count}",
    };

    /// <summary>The format of the payload the client sends, or null when it sends none.</summary>
    public WireFormat? PayloadFormat => Kind switch
    {
        ScenarioKind.Download or ScenarioKind.GrpcUnary or ScenarioKind.GrpcStream => null,
        ScenarioKind.Upload => Format,
        _ => WireFormat.Json,
    };

    /// <summary>What the request is, for the reports.</summary>
    public string Description => Kind switch
    {
        ScenarioKind.Download => $"GET {Path}?format={Format.Key}&count={Count}",
        ScenarioKind.Upload => $"POST {Path}, Content-Type: {UploadMediaType}",
        ScenarioKind.GrpcUnary or ScenarioKind.GrpcStream => GrpcScenarios.Description(this),
        _ => $"POST {ConvertPath}, Content-Type: {WireMediaTypes.Json}, Accept: {Format.MediaType}",
    };

    /// <summary>What a bar of a chart calls it: the format's key, with <c>stock</c> for the MVC baseline.</summary>
    public string Label => BaselineScenarios.Label(this);

    private string Count => MemberCount.ToString(CultureInfo.InvariantCulture);

    private string Path => BaselineScenarios.PathOf(Endpoint, OrganizationPath);

    private string UploadMediaType => BaselineScenarios.UploadMediaType(this);

    /// <summary>The request the load sends; <paramref name="payload"/> is the body of an upload or convert.</summary>
    public HttpRequestMessage CreateRequest(ReadOnlyMemory<byte> payload)
    {
        if (Kind == ScenarioKind.Download)
        {
            return new HttpRequestMessage(HttpMethod.Get, $"{Path}?format={Format.Key}&count={Count}");
        }

        var request = new HttpRequestMessage(HttpMethod.Post, Kind == ScenarioKind.Upload ? Path : ConvertPath)
        {
            Content = new ReadOnlyMemoryContent(payload),
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue(Kind == ScenarioKind.Upload ? UploadMediaType : PayloadFormat!.MediaType);
        if (Kind == ScenarioKind.Convert)
        {
            request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue(Format.MediaType));
        }

        return request;
    }

    /// <summary>
    /// A cheap request that reaches the same endpoint: a download of no members, or a post with an empty body. Only its
    /// status matters: 404 or 405 means the endpoint is not on this server (yet).
    /// </summary>
    public HttpRequestMessage CreateProbe() => Kind == ScenarioKind.Download
        ? new HttpRequestMessage(HttpMethod.Get, $"{Path}?format={Format.Key}&count=0")
        : CreateRequest(ReadOnlyMemory<byte>.Empty);

    /// <summary>The download that fetches this scenario's payload once, before the scenario, for the client to hold.</summary>
    public HttpRequestMessage? CreatePayloadDownload() => PayloadFormat is { } payloadFormat
        ? new HttpRequestMessage(HttpMethod.Get, $"{OrganizationPath}?format={payloadFormat.Key}&count={Count}")
        : null;

    /// <summary>Every scenario the options select, in run order: downloads, uploads, converts; small payloads first.</summary>
    public static IReadOnlyList<LoadScenario> Select(LoadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var counts = options.MemberCounts.Order().ToArray();
        var all = new List<LoadScenario>();
        foreach (var count in counts)
        {
            all.AddRange(WireFormat.All.Select(format => new LoadScenario(ScenarioKind.Download, format, count)));
        }

        foreach (var count in counts)
        {
            all.AddRange(WireFormat.All.Select(format => new LoadScenario(ScenarioKind.Upload, format, count)));
        }

        foreach (var count in counts)
        {
            all.AddRange(WireFormat.All
                .Where(format => format != WireFormat.Json)
                .Select(format => new LoadScenario(ScenarioKind.Convert, format, count)));
        }

        all.AddRange(GrpcScenarios.Select(counts));

        if (options.Smoke)
        {
            // The smoke's one large scenario: JSON flushes most often (1,200 times a million members), so a cost per
            // flush shows there first, and at 10,000 members it is lost in the rounding.
            all.RemoveAll(scenario => scenario.MemberCount > LoadOptions.SmokeMemberCount
                && !(scenario.Kind == ScenarioKind.Download && scenario.Format == WireFormat.Json));
        }

        // The MVC baseline runs only when named (--scenarios baseline...): the default run and the smoke measure ours.
        if (options.ScenarioFilters.Count > 0)
        {
            all.AddRange(BaselineScenarios.For(counts));
        }

        return options.ScenarioFilters.Count == 0
            ? all
            : [.. all.Where(scenario => options.ScenarioFilters.Any(filter => scenario.Name.StartsWith(filter, StringComparison.OrdinalIgnoreCase)))];
    }
}
