using System.Text;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// A member's text as a decoder hands it over: null, or well-formed UTF-8 that lives in the decoder's buffers only
/// until the sink returns. A sink that keeps a text copies it, or makes a string with <see cref="ToStringOrNull"/>.
/// </summary>
public readonly ref struct Utf8Text
{
    private readonly bool _isPresent;

    /// <summary>A text made of <paramref name="utf8"/>, which the caller has checked is well-formed UTF-8.</summary>
    public Utf8Text(ReadOnlySpan<byte> utf8)
    {
        Bytes = utf8;
        _isPresent = true;
    }

    /// <summary>The null text (also <c>default</c>).</summary>
    public static Utf8Text Null => default;

    /// <summary>The UTF-8 bytes; empty for null.</summary>
    public ReadOnlySpan<byte> Bytes { get; }

    /// <summary>Whether the text is null (as opposed to empty).</summary>
    public bool IsNull => !_isPresent;

    /// <summary>The text as a new string, or null.</summary>
    public string? ToStringOrNull() => _isPresent ? Encoding.UTF8.GetString(Bytes) : null;
}
