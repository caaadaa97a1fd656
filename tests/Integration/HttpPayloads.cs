using System.Net.Http.Headers;

namespace WebSerialization.IntegrationTests;

public static class HttpPayloads
{
    /// <summary>GETs the organization's first <paramref name="count"/> members in <paramref name="format"/> as bytes (small counts only).</summary>
    public static async Task<byte[]> DownloadAsync(HttpClient client, WireFormat format, int count) =>
        await client.GetByteArrayAsync($"/api/organization?count={count}&format={format.Key}");

    public static Task<HttpResponseMessage> PostAsync(HttpClient client, string path, byte[] body, string? contentType, string accept = WireMediaTypes.Json)
    {
        var content = new ByteArrayContent(body);
        if (contentType is not null)
        {
            content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        }

        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
        request.Headers.Accept.ParseAdd(accept);
        return client.SendAsync(request);
    }

    /// <summary>POSTs <paramref name="body"/> as <paramref name="format"/> to the summary endpoint.</summary>
    public static Task<HttpResponseMessage> UploadAsync(HttpClient client, WireFormat format, byte[] body) =>
        PostAsync(client, "/api/organization", body, format.MediaType);

    public static async Task<UploadSummary> ReadSummaryAsync(HttpResponseMessage response)
    {
        var summary = await JsonSerializer.DeserializeAsync<UploadSummary>(
            await response.Content.ReadAsStreamAsync(),
            new JsonSerializerOptions(JsonSerializerDefaults.Web));
        return summary!;
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
