using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Security.Cryptography;
using WebSerialization.Models.Baseline;

namespace WebSerialization.IntegrationTests;

public static class HttpPayloads
{
    /// <summary>The MVC baseline's route, beside the streamed <c>/api/organization</c>.</summary>
    public const string BaselinePath = "/" + BaselineContract.Route;

    /// <summary>The Content-Type of an upload of <paramref name="format"/> to <paramref name="path"/>.</summary>
    public static string ContentType(string path, WireFormat format) =>
        path == BaselinePath ? BaselineContract.Sent[format] : format.MediaType;

    /// <summary>GETs the organization's first <paramref name="count"/> members in <paramref name="format"/> as bytes (small counts only).</summary>
    public static async Task<byte[]> DownloadAsync(HttpClient client, WireFormat format, int count) =>
        await client.GetByteArrayAsync($"/api/organization?count={count}&format={format.Key}");

    /// <summary>The SHA-256 of <paramref name="body"/> in hex, read as it arrives: a million members do not belong in memory.</summary>
    public static async Task<string> Sha256Async(Stream body) => Convert.ToHexString(await SHA256.HashDataAsync(body));

    /// <summary>GETs <paramref name="path"/> with the Accept and Accept-Encoding headers given, sent as written.</summary>
    public static async Task<HttpResponseMessage> GetAsync(HttpClient client, string path, string? accept = null, string? acceptEncoding = null, HttpCompletionOption completion = HttpCompletionOption.ResponseContentRead)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        foreach (var (name, value) in new[] { ("Accept", accept), ("Accept-Encoding", acceptEncoding) })
        {
            if (value is not null)
            {
                request.Headers.TryAddWithoutValidation(name, value);
            }
        }

        return await client.SendAsync(request, completion);
    }

    public static Task<HttpResponseMessage> PostAsync(HttpClient client, string path, byte[] body, string? contentType, string accept = WireMediaTypes.Json)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, path)
        {
            Content = new ByteArrayContent(body)
            {
                Headers = { ContentType = contentType is null ? null : MediaTypeHeaderValue.Parse(contentType) },
            },
        };
        request.Headers.Accept.ParseAdd(accept);
        return client.SendAsync(request);
    }

    /// <summary>POSTs <paramref name="body"/> as <paramref name="format"/> to the summary endpoint.</summary>
    public static Task<HttpResponseMessage> UploadAsync(HttpClient client, WireFormat format, byte[] body) =>
        PostAsync(client, "/api/organization", body, format.MediaType);

    /// <summary>An upload's summary, read as JSON with the web defaults (camelCase).</summary>
    public static async Task<UploadSummary> ReadSummaryAsync(HttpResponseMessage response) =>
        (await response.Content.ReadFromJsonAsync<UploadSummary>())!;

    /// <summary>Asserts a 200 (failing with the answer's text otherwise), and reads the upload's summary.</summary>
    public static async Task<UploadSummary> AssertSummaryAsync(HttpResponseMessage response)
    {
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{response.RequestMessage?.RequestUri} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        return await ReadSummaryAsync(response);
    }

    /// <summary>Calls <paramref name="use"/> with a temporary copy of the .proto the server publishes, deleted after.</summary>
    public static async Task<T> WithServedSchemaAsync<T>(HttpClient client, Func<string, T> use)
    {
        var schema = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(schema, await client.GetStringAsync("/api/organization.proto"));
            return use(schema);
        }
        finally
        {
            File.Delete(schema);
        }
    }

    /// <summary>Every name and alias of <paramref name="formats"/>: the media types that select one of them.</summary>
    public static IEnumerable<string> MediaTypeNames(IEnumerable<WireFormat> formats) =>
        formats.SelectMany(format => (string[])[format.MediaType, .. format.Aliases]);

    /// <summary>Asserts that a problem lists every name and alias of <paramref name="formats"/> as supported.</summary>
    public static void AssertSupportedMediaTypes(JsonDocument problem, IEnumerable<WireFormat> formats) => Assert.Equal(
        MediaTypeNames(formats).Order(StringComparer.Ordinal),
        problem.RootElement.GetProperty("supportedMediaTypes").EnumerateArray().Select(e => e.GetString()!).Order(StringComparer.Ordinal));

    /// <summary>Asserts a problem details answer with <paramref name="status"/>, and returns its document.</summary>
    public static async Task<JsonDocument> AssertProblemAsync(HttpResponseMessage response, int status)
    {
        var text = await response.Content.ReadAsStringAsync();
        Assert.True((int)response.StatusCode == status, $"Expected {status}, got {(int)response.StatusCode}: {text}");
        Assert.Equal(WireMediaTypes.ProblemJson, response.Content.Headers.ContentType?.MediaType);
        var problem = JsonDocument.Parse(text);
        Assert.Equal(status, problem.RootElement.GetProperty("status").GetInt32());
        return problem;
    }
}
