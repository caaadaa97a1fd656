using OpenQA.Selenium;
using OpenQA.Selenium.Support.UI;
using Xunit.Abstractions;

namespace WebSerialization.BrowserTests;

/// <summary>Swagger UI, as people use it: in Chromium, against the app in the Production environment.</summary>
public sealed class SwaggerUiTests(ProductionServer server, ITestOutputHelper output) : IClassFixture<ProductionServer>
{
    private static readonly string[] MediaTypes = ["application/json", "application/vnd.msgpack", "application/protobuf", "application/vnd.webserialization.binary"];

    private static readonly By MediaTypeSelect = By.CssSelector(".response-control-media-type--accept-controller select.content-type");
    private static readonly By LiveStatus = By.CssSelector(".live-responses-table tr.response .response-col_status");

    [Fact]
    public void TriesGetOrganizationInEachOfItsFourMediaTypesWithCountTen()
    {
        using var browser = HeadlessChromium.Start();
        var driver = browser.Driver;
        var wait = new WebDriverWait(driver, TimeSpan.FromSeconds(30));
        driver.Navigate().GoToUrl(new Uri(server.BaseAddress, "/swagger/index.html"));

        var operation = wait.Until(page => page.FindElements(By.Id("operations-Organization-GetOrganization")).SingleOrDefault());
        Assert.Equal("GET", operation!.FindElement(By.CssSelector(".opblock-summary-method")).Text);
        Assert.Equal("/api/organization", operation.FindElement(By.CssSelector(".opblock-summary-path")).GetDomAttribute("data-path"));
        operation.FindElement(By.CssSelector(".opblock-summary-control")).Click();

        // The 200 response lists its media types in the select that also sets the Accept header of "Try it out".
        var offered = wait.Until(_ => operation.FindElements(MediaTypeSelect).SingleOrDefault())!
            .FindElements(By.TagName("option")).Select(option => option.GetDomAttribute("value")).ToArray();
        Assert.Equal(MediaTypes, offered);

        operation.FindElement(By.CssSelector("button.try-out__btn")).Click();
        var count = wait.Until(_ => operation.FindElements(By.CssSelector("tr[data-param-name='count'] input")).SingleOrDefault(input => input.Enabled));
        count!.Clear();
        count.SendKeys("10");

        // JSON last, so that the screenshot shows a response body a person can read.
        foreach (var mediaType in MediaTypes.Skip(1).Append(MediaTypes[0]))
        {
            if (operation.FindElements(By.CssSelector("button.btn-clear")).SingleOrDefault() is { } clear)
            {
                clear.Click();
                wait.Until(_ => operation.FindElements(LiveStatus).Count == 0);
            }

            operation.FindElement(MediaTypeSelect).FindElement(By.CssSelector($"option[value='{mediaType}']")).Click();
            operation.FindElement(By.CssSelector("button.execute")).Click();

            var status = wait.Until(_ => operation.FindElements(LiveStatus).FirstOrDefault(cell => cell.Text.Trim().Length > 0))!.Text.Trim();
            var curl = operation.FindElement(By.CssSelector(".curl-command")).Text;
            var headers = operation.FindElement(By.CssSelector(".live-responses-table tr.response .response-col_description")).Text;
            output.WriteLine($"{mediaType}: {status}\n{curl}\n{headers}\n");
            Assert.Equal("200", status);
            Assert.Contains($"accept: {mediaType}", curl, StringComparison.Ordinal);
            Assert.Contains("count=10", curl, StringComparison.Ordinal);
            Assert.Contains($"content-type: {mediaType}", headers, StringComparison.Ordinal);
        }

        var screenshots = Path.Combine(AppContext.BaseDirectory, "screenshots");
        Directory.CreateDirectory(screenshots);
        var path = Path.Combine(screenshots, "swagger-get-organization.png");
        ((ITakesScreenshot)operation).GetScreenshot().SaveAsFile(path);
        output.WriteLine($"Screenshot: {path}");
    }
}
