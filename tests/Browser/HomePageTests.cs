using System.Globalization;
using System.Text.Json;
using OpenQA.Selenium;
using OpenQA.Selenium.Support.UI;
using WebSerialization.Models;
using Xunit.Abstractions;

namespace WebSerialization.BrowserTests;

/// <summary>The page at <c>/</c>, in Chromium, against the app in the Production environment (compression on).</summary>
public sealed class HomePageTests(ProductionServer server, ITestOutputHelper output) : IClassFixture<ProductionServer>
{
    private const int Count = ProductionServer.MemberCount;
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task LoadsWithoutAConsoleErrorAndListsTheMediaTypesOfApiFormats()
    {
        using var client = new HttpClient { BaseAddress = server.BaseAddress };
        using var formats = JsonDocument.Parse(await client.GetStringAsync(new Uri("/api/formats", UriKind.Relative)));
        var served = formats.RootElement.EnumerateArray().Select(format => format.GetProperty("mediaType").GetString()).ToArray();
        Assert.Equal(WireFormat.All.Select(format => format.MediaType), served);

        using var browser = HeadlessChromium.Start();
        var driver = browser.Driver;
        driver.Navigate().GoToUrl(server.BaseAddress);
        WaitForReady(driver);

        var rows = driver.FindElements(By.CssSelector("#formats tbody tr"));
        Assert.Equal(served, rows.Select(row => row.FindElement(By.CssSelector("td:nth-of-type(1)")).Text));
        Assert.Equal(WireFormat.All.Select(format => format.Key), rows.Select(row => row.GetDomAttribute("data-format")));
        Assert.Equal("/swagger", driver.FindElement(By.LinkText("Swagger UI: every endpoint, to try")).GetDomAttribute("href"));
        Assert.Empty(driver.FindElements(By.CssSelector("a[href='/metrics']")));
        Assert.Empty(browser.ConsoleErrors());
    }

    [Fact]
    public async Task SharedLinkMeasuresEveryFormatAndRecordsTheBodySizesTheApiServes()
    {
        var expected = new Dictionary<string, long>();
        using (var client = new HttpClient { BaseAddress = server.BaseAddress })
        {
            foreach (var format in WireFormat.All)
            {
                using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/organization?count={Count}");
                request.Headers.Accept.ParseAdd(format.MediaType);
                using var response = await client.SendAsync(request);
                response.EnsureSuccessStatusCode();
                expected[format.Key] = (await response.Content.ReadAsByteArrayAsync()).LongLength;
            }
        }

        using var browser = HeadlessChromium.Start();
        var driver = browser.Driver;
        driver.Navigate().GoToUrl(new Uri(server.BaseAddress, $"/?count={Count}&run=1"));
        var compare = driver.FindElement(By.Id("compare"));
        var state = new WebDriverWait(driver, RunTimeout).Until(_ => compare.GetDomAttribute("data-state") is "done" or "cancelled" ? compare.GetDomAttribute("data-state") : null);
        output.WriteLine(driver.FindElement(By.Id("status")).Text);
        Assert.Equal("done", state);

        var rows = driver.FindElements(By.CssSelector("#results tbody tr"));
        Assert.Equal(WireFormat.All.Select(format => format.Key), rows.Select(row => row.GetDomAttribute("data-format")));
        foreach (var row in rows)
        {
            var key = row.GetDomAttribute("data-format")!;
            output.WriteLine($"{key}: {row.GetDomAttribute("data-bytes")} B ({row.GetDomAttribute("data-transferred")} B {row.GetDomAttribute("data-encoding")}), "
                + $"first byte {row.GetDomAttribute("data-first-byte-ms")} ms, last byte {row.GetDomAttribute("data-ms")} ms ({row.GetDomAttribute("data-timing")}), decode {row.GetDomAttribute("data-decode-ms")} ms");
            Assert.Null(row.GetDomAttribute("data-error"));
            Assert.Equal(expected[key], long.Parse(row.GetDomAttribute("data-bytes")!, CultureInfo.InvariantCulture));

            var firstByte = double.Parse(row.GetDomAttribute("data-first-byte-ms")!, CultureInfo.InvariantCulture);
            var lastByte = double.Parse(row.GetDomAttribute("data-ms")!, CultureInfo.InvariantCulture);
            Assert.InRange(firstByte, 0, lastByte);
            Assert.True(lastByte > 0, $"{key}: time to last byte {lastByte} ms");

            // The browser asks for compression and the server compresses every format: the page tells the sizes apart.
            var transferred = long.Parse(row.GetDomAttribute("data-transferred")!, CultureInfo.InvariantCulture);
            Assert.NotEqual("identity", row.GetDomAttribute("data-encoding"));
            Assert.InRange(transferred, 1, expected[key] - 1);

            // JSON and binary have a reader that ships with the API, so their bodies are decoded and their members counted.
            var decoded = key is "json" or "binary";
            Assert.Equal(decoded ? Count.ToString(CultureInfo.InvariantCulture) : null, row.GetDomAttribute("data-members"));
            Assert.Equal(decoded, row.GetDomAttribute("data-decode-ms") is not null);
        }

        Assert.Equal(WireFormat.All.Count, driver.FindElements(By.CssSelector("#bars svg rect.bar-size:not(.swatch)")).Count);
        var curlLines = driver.FindElements(By.CssSelector("#curl-lines code")).Select(line => line.Text).ToArray();
        Assert.Equal(WireFormat.All.Count, curlLines.Length);
        foreach (var (format, line) in WireFormat.All.Zip(curlLines))
        {
            Assert.StartsWith("curl ", line, StringComparison.Ordinal);
            Assert.Contains($"-H 'Accept: {format.MediaType}'", line, StringComparison.Ordinal);
            Assert.EndsWith($"/api/organization?count={Count}'", line, StringComparison.Ordinal);
        }

        Assert.Empty(browser.ConsoleErrors());

        var screenshot = ((ITakesScreenshot)compare).GetScreenshot();
        var path = Path.Combine(AppContext.BaseDirectory, "screenshots", "compare.png");
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        screenshot.SaveAsFile(path);
        output.WriteLine($"Screenshot: {path}");
        if (DocsScreenshot.Requested)
        {
            output.WriteLine($"Written into the docs: {DocsScreenshot.Write(screenshot, driver, Count)}");
        }
    }

    [Fact]
    public void BinaryReaderModuleDecodesABodyToTheMembersTheServerHolds()
    {
        using var browser = HeadlessChromium.Start();
        var driver = browser.Driver;
        driver.Navigate().GoToUrl(server.BaseAddress);
        WaitForReady(driver);
        driver.Manage().Timeouts().AsynchronousJavaScript = RunTimeout;

        // The module the page serves, imported by URL as any browser script would; int64 and double bits come back as strings.
        var result = (IDictionary<string, object>?)((IJavaScriptExecutor)driver).ExecuteAsyncScript(
            """
            const done = arguments[arguments.length - 1];
            const count = arguments[0];
            import('/js/webserialization-binary.mjs').then(async ({ decodeBinary }) => {
              const response = await fetch(`/api/organization?count=${count}`, { headers: { Accept: 'application/vnd.webserialization.binary' } });
              const organization = decodeBinary(new Uint8Array(await response.arrayBuffer()));
              const last = organization.members.at(-1);
              done({
                count: organization.members.length,
                last: [String(last.id), last.name, last.description, last.address, last.valueBits, String(last.updateTime)],
              });
            }).catch((error) => done({ error: String(error) }));
            """,
            Count);

        Assert.NotNull(result);
        Assert.False(result.ContainsKey("error"), result.TryGetValue("error", out var error) ? error.ToString() : null);
        Assert.Equal((long)Count, result["count"]);
        var member = OrganizationGenerator.Create(Count).Members![^1];
        string[] expected =
        [
            member.Id.ToString(CultureInfo.InvariantCulture),
            member.Name!,
            member.Description!,
            member.Address!,
            BitConverter.DoubleToInt64Bits(member.Value).ToString("x16", CultureInfo.InvariantCulture),
            member.UpdateTime.ToString(CultureInfo.InvariantCulture),
        ];
        Assert.Equal(expected, ((IEnumerable<object>)result["last"]).Select(value => value as string));
        Assert.Empty(browser.ConsoleErrors());
    }

    // home.mjs marks the body once it has filled the formats table from the server.
    private static void WaitForReady(IWebDriver driver) =>
        new WebDriverWait(driver, TimeSpan.FromSeconds(30)).Until(page => page.FindElement(By.TagName("body")).GetDomAttribute("data-ready") == "true");
}
