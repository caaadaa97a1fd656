using System.Globalization;
using System.Runtime.InteropServices;
using OpenQA.Selenium;
using WebSerialization.Tests.Support;

namespace WebSerialization.BrowserTests;

// Writes the finished comparison into docs/images/compare.png, with a note beside it saying when, where and how it
// was taken, when WEBSERIALIZATION_WRITE_DOCS=1. Only then: its timings differ on every run, and a test run
// should not leave the working tree changed.
public static class DocsScreenshot
{
    public const string Variable = "WEBSERIALIZATION_WRITE_DOCS";

    /// <summary>The command that writes both files, as the note quotes it.</summary>
    public const string Command = Variable + "=1 dotnet test tests/Browser -c Release --filter \"FullyQualifiedName~SharedLinkMeasuresEveryFormat\"";

    public static bool Requested => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>Writes the image and its note; returns the image's path.</summary>
    public static string Write(Screenshot screenshot, IWebDriver driver, int count)
    {
        var images = Path.Combine(RepositoryFolder.Root, "docs", "images");
        Directory.CreateDirectory(images);
        var image = Path.Combine(images, "compare.png");
        screenshot.SaveAsFile(image);

        var browserVersion = ((IHasCapabilities)driver).Capabilities.GetCapability("browserVersion");
        var size = driver.Manage().Window.Size;
        var note = $"""
            <!-- Generated with the image by tests/Browser (HomePageTests, DocsScreenshot); do not edit. -->
            # compare.png

            ![The Compare panel of the page at / after a run of {count.ToString("N0", CultureInfo.InvariantCulture)} members](compare.png)

            The page at `/` after `/?count={count.ToString(CultureInfo.InvariantCulture)}&run=1` finished: headless Chromium {browserVersion} in a
            {size.Width}x{size.Height} window, the app in the Production environment (response compression on) on 127.0.0.1, on
            {RuntimeInformation.OSDescription} with {Environment.ProcessorCount} CPUs, {DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture)} UTC.
            The browser and the server shared the machine, so the times are an example, not a measurement to quote; the
            load runner's are in [results](../results/).

            Written by

            ```sh
            {Command}
            ```

            """;
        File.WriteAllText(Path.Combine(images, "compare.md"), note.Replace("\r\n", "\n", StringComparison.Ordinal));
        return image;
    }
}
