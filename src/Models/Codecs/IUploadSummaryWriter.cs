using System.Buffers;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// A codec whose format can also carry an <see cref="UploadSummary"/>, written with the format's library so that any
/// client of that library reads it. A codec without it (the binary format describes organizations only) offers no summary.
/// </summary>
public interface IUploadSummaryWriter
{
    /// <summary>Writes <paramref name="summary"/> into <paramref name="output"/>.</summary>
    void WriteSummary(IBufferWriter<byte> output, UploadSummary summary);
}
