using System.Net.Http.Headers;
using WebSerialization.Models.Baseline;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The built-in HTTP scenarios, written with <see cref="Scenario.Create"/>: <c>download-KEY-N</c>, <c>upload-KEY-N</c>
/// and <c>convert-json-to-KEY-N</c> on the streamed endpoint, <c>compressed-download-KEY-ENCODING-N</c>, and the MVC
/// baseline's <c>baseline-download-...</c> and <c>baseline-upload-...</c>. Each probes its endpoint in its init (skipped when absent) and holds its payload there,
/// so that an invocation is one request whose body the client drains.
/// </summary>
public static class HttpScenarios
{
    public const string OrganizationPath = "/api/organization";
    public const string ConvertPath = "/api/organization/convert";

    public static LoadScenario Download(WireFormat format, int memberCount, bool baseline = false)
    {
        var subject = new ScenarioSubject(ScenarioOperation.Download, format, memberCount, baseline);
        return Scenario.Create(Name(subject), context => Http.SendAsync(context, CreateRequest(subject, default)))
            .WithSubject(subject)
            .WithDescription($"GET {Path(subject)}?format={format.Key}&count={Count(subject)}")
            .WithInit(async init => await init.ProbeAsync(Probe(subject)));
    }

    /// <summary>
    /// The download with <c>Accept-Encoding: <paramref name="encoding"/></c>: its size is the compressed body as sent, and a
    /// response in any other encoding fails.
    /// </summary>
    public static LoadScenario CompressedDownload(WireFormat format, string encoding, int memberCount)
    {
        var subject = new ScenarioSubject(ScenarioOperation.CompressedDownload, format, memberCount, ContentEncoding: encoding);
        return Scenario.Create(Name(subject), context => Http.SendAsync(context, CreateRequest(subject, default), encoding))
            .WithSubject(subject)
            .WithDescription($"GET {Path(subject)}?format={format.Key}&count={Count(subject)}, Accept-Encoding: {encoding}")
            .WithInit(async init => await init.ProbeAsync(Probe(subject)));
    }

    /// <summary>An upload of <paramref name="memberCount"/> members in <paramref name="format"/>, the payload held by the client.</summary>
    public static LoadScenario Upload(WireFormat format, int memberCount, bool baseline = false) =>
        WithPayload(new ScenarioSubject(ScenarioOperation.Upload, format, memberCount, baseline));

    public static LoadScenario Convert(WireFormat format, int memberCount) =>
        WithPayload(new ScenarioSubject(ScenarioOperation.Convert, format, memberCount));

    /// <summary>The request an invocation of <paramref name="subject"/>'s scenario sends; <paramref name="payload"/> is an upload's or convert's body.</summary>
    public static HttpRequestMessage CreateRequest(ScenarioSubject subject, ReadOnlyMemory<byte> payload)
    {
        if (IsDownload(subject))
        {
            var download = new HttpRequestMessage(HttpMethod.Get, $"{Path(subject)}?format={subject.Format.Key}&count={Count(subject)}");
            if (subject.ContentEncoding is { } encoding)
            {
                download.Headers.AcceptEncoding.Add(new StringWithQualityHeaderValue(encoding));
            }

            return download;
        }

        var convert = subject.Operation == ScenarioOperation.Convert;
        var request = new HttpRequestMessage(HttpMethod.Post, convert ? ConvertPath : Path(subject)) { Content = new ReadOnlyMemoryContent(payload) };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue(convert ? WireFormat.Json.MediaType : UploadMediaType(subject));
        if (convert)
        {
            request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue(subject.Format.MediaType));
        }

        return request;
    }

    /// <summary>The format of the payload an upload or convert sends: the upload's own, JSON for a convert.</summary>
    public static WireFormat PayloadFormat(ScenarioSubject subject) =>
        subject.Operation == ScenarioOperation.Convert ? WireFormat.Json : subject.Format;

    // An upload or convert: the init probes the endpoint, then fetches the payload once; a streamed upload also
    // measures the same bytes decoded in process, the upload target's yardstick.
    private static LoadScenario WithPayload(ScenarioSubject subject)
    {
        byte[] payload = [];
        var scenario = Scenario.Create(Name(subject), context => Http.SendAsync(context, CreateRequest(subject, payload)))
            .WithSubject(subject)
            .WithDescription(subject.Operation == ScenarioOperation.Convert
                ? $"POST {ConvertPath}, Content-Type: {WireMediaTypes.Json}, Accept: {subject.Format.MediaType}"
                : $"POST {Path(subject)}, Content-Type: {UploadMediaType(subject)}")
            .WithInit(async init =>
            {
                if (await init.ProbeAsync(Probe(subject)))
                {
                    payload = await init.Payloads.GetAsync(init.Http, PayloadFormat(subject), subject.MemberCount, init.CancellationToken);
                }
            });
        return subject.IsStreamed(ScenarioOperation.Upload)
            ? scenario.WithInProcessDecode(cancellationToken => InProcessDecode.MeasureAsync(subject.Format, payload, cancellationToken))
            : scenario;
    }

    private static string Name(ScenarioSubject subject) => (subject.Baseline ? BaselineScenarios.Prefix : string.Empty)
        + (subject.Operation == ScenarioOperation.Convert
            ? $"convert-json-to-{subject.Format.Key}-{Count(subject)}"
            : subject.ContentEncoding is { } encoding ? $"{subject.Operation.Key}-{subject.Format.Key}-{encoding}-{Count(subject)}"
            : $"{subject.Operation.Key}-{subject.Format.Key}-{Count(subject)}");

    // A cheap request to the same endpoint: a download of no members, or a post with an empty body.
    private static HttpRequestMessage Probe(ScenarioSubject subject) => IsDownload(subject)
        ? new HttpRequestMessage(HttpMethod.Get, $"{Path(subject)}?format={subject.Format.Key}&count=0")
        : CreateRequest(subject, ReadOnlyMemory<byte>.Empty);

    private static bool IsDownload(ScenarioSubject subject) =>
        subject.Operation == ScenarioOperation.Download || subject.Operation == ScenarioOperation.CompressedDownload;

    private static string Count(ScenarioSubject subject) => subject.MemberCount.ToString(CultureInfo.InvariantCulture);

    private static string Path(ScenarioSubject subject) => subject.Baseline ? "/" + BaselineContract.Route : OrganizationPath;

    // The stock MessagePack formatter reads application/x-msgpack only.
    private static string UploadMediaType(ScenarioSubject subject) =>
        subject.Baseline ? BaselineContract.Sent[subject.Format] : subject.Format.MediaType;
}
