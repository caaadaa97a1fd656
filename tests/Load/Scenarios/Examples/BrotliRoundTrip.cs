using System.IO.Compression;
using System.Net.Http.Headers;

namespace WebSerialization.Load.Scenarios.Examples;

/// <summary>
/// A scenario of one's own, as README shows it: download 10,000 members as JSON with <c>Accept-Encoding: br</c>, then
/// upload what was downloaded (decompressed: the server reads JSON, not Brotli), as two measured steps. Program.cs
/// registers it, so every smoke run runs it.
/// </summary>
public static class BrotliRoundTrip
{
    public const string Name = "brotli-round-trip";

    public static LoadScenario Create() =>
        Scenario.Create(Name, async context =>
        {
            var download = await Step.Run("download-br", context, async () =>
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, "/api/organization?format=json&count=10000");
                request.Headers.AcceptEncoding.Add(new StringWithQualityHeaderValue("br"));
                return await Http.SendForBodyAsync(context, request);
            });

            var json = await DecompressAsync(download.Payload!, context.CancellationToken);
            var upload = await Step.Run("upload", context, async () =>
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, "/api/organization") { Content = new ByteArrayContent(json) };
                request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
                return await Http.SendAsync(context, request);
            });

            return Response.Ok(upload.StatusCode, sizeBytes: download.SizeBytes + upload.SizeBytes, bytesSent: upload.BytesSent);
        })
        .WithDescription("GET /api/organization?format=json&count=10000 with Accept-Encoding: br, then POST /api/organization with that JSON");

    // Throws InvalidDataException, which fails the invocation, when the server did not answer in Brotli.
    private static async Task<byte[]> DecompressAsync(byte[] brotli, CancellationToken cancellationToken)
    {
        await using var decompressed = new BrotliStream(new MemoryStream(brotli), CompressionMode.Decompress);
        using var json = new MemoryStream();
        await decompressed.CopyToAsync(json, cancellationToken);
        return json.ToArray();
    }
}
