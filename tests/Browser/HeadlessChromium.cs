using OpenQA.Selenium;
using OpenQA.Selenium.Chrome;

namespace WebSerialization.BrowserTests;

// Debian's Chromium, headless, driven through Debian's chromedriver. Both paths are given to Selenium, so Selenium
// Manager has nothing to find or download (this machine has no outside network). A missing browser fails the
// test: test.sh installs it, and a browser test that skips would hide that the install failed.
public sealed class HeadlessChromium : IDisposable
{
    public const string BrowserPath = "/usr/bin/chromium";
    public const string DriverPath = "/usr/bin/chromedriver";

    private readonly string _profile = Path.Combine(Path.GetTempPath(), "webserialization-chromium-" + Guid.NewGuid().ToString("N"));

    private HeadlessChromium()
    {
        Assert.True(File.Exists(BrowserPath) && File.Exists(DriverPath), $"{BrowserPath} and {DriverPath} are required: ./test.sh installs them (Debian packages chromium and chromium-driver).");

        // Selenium Manager is not needed when both paths are given; these keep it offline should it run anyway.
        Environment.SetEnvironmentVariable("SE_OFFLINE", "true");
        Environment.SetEnvironmentVariable("SE_AVOID_STATS", "true");

        var service = ChromeDriverService.CreateDefaultService(Path.GetDirectoryName(DriverPath)!, Path.GetFileName(DriverPath));
        service.SuppressInitialDiagnosticInformation = true;
        service.HideCommandPromptWindow = true;

        var options = new ChromeOptions { BinaryLocation = BrowserPath };

        // The flags this machine needs: root (no sandbox), no GPU, and no background connections, which its closed
        // network refuses many at a time; a new empty profile per run.
        options.AddArguments(
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,2200", $"--user-data-dir={_profile}");

        // The page's console, for tests that require it to stay free of errors (a failed load, an uncaught exception).
        options.SetLoggingPreference(LogType.Browser, LogLevel.All);
        Driver = new ChromeDriver(service, options, TimeSpan.FromSeconds(60));
    }

    public ChromeDriver Driver { get; }

    /// <summary>The console's errors since the last call (Chromium reports a failed request or an uncaught exception as SEVERE).</summary>
    public IReadOnlyList<string> ConsoleErrors() =>
        [.. Driver.Manage().Logs.GetLog(LogType.Browser).Where(entry => entry.Level == LogLevel.Severe).Select(entry => entry.Message)];

    public static HeadlessChromium Start() => new();

    public void Dispose()
    {
        Driver.Quit();
        Driver.Dispose();
        if (Directory.Exists(_profile))
        {
            Directory.Delete(_profile, recursive: true);
        }
    }
}
