namespace WebSerialization.Load.Engine;

public static class Units
{
    /// <summary>A megabyte here is 2^20 bytes, as in the seed article (196,227,181 bytes = 187.14 MB).</summary>
    public const double BytesPerMegabyte = 1024.0 * 1024.0;
}
