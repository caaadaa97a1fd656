using WebSerialization.Models.Codecs;

namespace WebSerialization.Api.Limits;

/// <summary>Configuration section <c>Limits</c>, its upload part: what the server accepts from a client in one request body (<see cref="HeavyRequestOptions"/> reads the same section for how much heavy work it takes on at once).</summary>
public sealed class UploadLimitsOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "Limits";

    /// <summary>
    /// Largest request body, in bytes. Bodies are decoded as they arrive and never held, so this bounds the time one
    /// request takes and a conversion's temporary file, not memory; the default fits the seed's 1,000,000 members as
    /// JSON (158 MB), the largest format, with room to spare.
    /// </summary>
    public long MaxRequestBodyBytes { get; set; } = 256L * 1024 * 1024;

    /// <summary>Most members an uploaded organization may have.</summary>
    public int MaxMembers { get; set; } = DecodeLimits.Default.MaxMembers;

    /// <summary>Most tags an uploaded organization may have.</summary>
    public int MaxTags { get; set; } = DecodeLimits.Default.MaxTags;

    /// <summary>Most UTF-8 bytes in any one string.</summary>
    public int MaxStringBytes { get; set; } = DecodeLimits.Default.MaxStringBytes;

    /// <summary>Deepest nesting accepted (JSON, MessagePack, and protobuf's groups).</summary>
    public int MaxDepth { get; set; } = DecodeLimits.Default.MaxDepth;

    /// <summary>The configuration key of a property, for messages that name the setting to change.</summary>
    public static string Key(string property) => $"{Section}:{property}";

    /// <summary>The value of the setting behind the <see cref="DecodeLimits"/> property <paramref name="limit"/>, if there is one.</summary>
    public int? ValueOf(string? limit) => limit switch
    {
        nameof(MaxMembers) => MaxMembers,
        nameof(MaxTags) => MaxTags,
        nameof(MaxStringBytes) => MaxStringBytes,
        nameof(MaxDepth) => MaxDepth,
        _ => null,
    };

    /// <summary>The decoder limits these options describe.</summary>
    public DecodeLimits ToDecodeLimits() => new()
    {
        MaxMembers = MaxMembers,
        MaxTags = MaxTags,
        MaxStringBytes = MaxStringBytes,
        MaxDepth = MaxDepth,
    };
}

/// <summary>Registers <see cref="UploadLimitsOptions"/> for every feature that takes uploads.</summary>
public static class UploadLimitsExtensions
{
    /// <summary>Binds <see cref="UploadLimitsOptions"/> to the <c>Limits</c> section (again, harmlessly, when several features ask).</summary>
    public static IServiceCollection AddUploadLimits(this IServiceCollection services)
    {
        services.AddOptions<UploadLimitsOptions>().BindConfiguration(UploadLimitsOptions.Section);
        return services;
    }
}
