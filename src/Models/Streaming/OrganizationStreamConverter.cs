using System.Buffers;
using System.IO.Pipelines;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Converts a payload from one format to another as it streams in: each member is decoded from the input and written
/// by the target format's encoder straight from the decoder's view of it (no object, no string), a chunk at a time,
/// into a temporary file; once the input has ended, the file goes to the output (see <see cref="SpillingOutput"/>).
/// No member is kept once it is written, and no byte goes out before the whole input has been read, so an input
/// found bad leaves the output untouched (a server can still answer 4xx); a failure after that is the output's own
/// (its reader gone), and a caller must treat it as a broken output (a server aborts).
/// Pipelined, the members are encoded on a thread of their own while the next ones are decoded
/// (<see cref="MemberPipeline"/>), so on more than one core decoding and encoding run at the same time.
/// </summary>
/// <remarks>
/// The header is written once the input has ended, before the file: MessagePack and the binary format state the member
/// count before the members where JSON and protobuf do not, and JSON and protobuf may put the id and tags after them.
/// </remarks>
public static class OrganizationStreamConverter
{
    /// <summary>How the names of a conversion's temporary files start, in <see cref="Path.GetTempPath"/>; each is deleted when its conversion ends.</summary>
    public const string TemporaryFilePrefix = "webserialization-convert-";

    /// <summary>The smallest input worth a thread of its own for encoding (<see cref="ShouldPipeline"/>).</summary>
    public const long MinPipelinedInputBytes = 1024 * 1024;

    /// <summary>
    /// Whether to pipeline a conversion of <paramref name="inputBytes"/> (null: not known in advance): only with more than
    /// one processor to run both halves on, and an input large enough to pay for the thread.
    /// </summary>
    public static bool ShouldPipeline(long? inputBytes) => Environment.ProcessorCount > 1 && inputBytes is null or >= MinPipelinedInputBytes;

    /// <summary>Converts the payload in <paramref name="input"/> from <paramref name="source"/>'s format to <paramref name="target"/>'s.</summary>
    /// <param name="input">The payload in the source format.</param>
    /// <param name="source">The input's format.</param>
    /// <param name="limits">What the input may hold.</param>
    /// <param name="target">The output's format.</param>
    /// <param name="output">Where the converted payload goes.</param>
    /// <param name="onFailure">Told, when the conversion fails, whether anything had gone to <paramref name="output"/> already.</param>
    /// <param name="cancellationToken">Stops the conversion.</param>
    /// <param name="chunkSize">Bytes of output handed on at a time.</param>
    /// <param name="pipelined">Whether to encode on a thread of its own while decoding goes on.</param>
    /// <returns>The bytes read and the bytes written.</returns>
    /// <exception cref="WireFormatException">The input is not a valid payload, or breaks a limit.</exception>
    /// <exception cref="OperationCanceledException">The token was cancelled or the output's reader went away.</exception>
    public static async Task<(long BytesRead, long BytesWritten)> ConvertAsync(
        PipeReader input,
        IWireFormatCodec source,
        DecodeLimits limits,
        IWireFormatCodec target,
        PipeWriter output,
        Action<bool> onFailure,
        CancellationToken cancellationToken,
        int chunkSize = OrganizationStreamWriter.DefaultChunkSize,
        bool pipelined = false)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(onFailure);
        using var conversion = new Conversion(target, output, chunkSize);
        using var pipeline = pipelined ? new MemberPipeline(conversion, cancellationToken) : null;
        try
        {
            var bytesRead = await OrganizationStreamReader.ReadToEndAsync(input, source.CreateDecoder(limits, (IOrganizationSink?)pipeline ?? conversion), cancellationToken);
            if (pipeline is not null)
            {
                await pipeline.FinishAsync();
            }

            var bytesWritten = await conversion.FinishAsync(cancellationToken);
            return (bytesRead, bytesWritten);
        }
        catch
        {
            onFailure(conversion.HasStarted);
            throw;
        }
    }

    private sealed class Conversion(IWireFormatCodec target, PipeWriter output, int chunkSize)
        : IOrganizationSink, IDisposable
    {
        private readonly IOrganizationEncoder _encoder = target.CreateEncoder();
        private readonly SpillingOutput _output = new(output, chunkSize);
        private long _written;
        private OrganizationHeader _final;

        // Encodes the members, once they begin, with a header that went nowhere: a member's bytes do not depend on the
        // id, tags or count before it, and those are only known for sure once the input has ended.
        private IOrganizationEncoder? _memberEncoder;

        public bool HasStarted => _output.HasStarted;

        public void BeginMembers(OrganizationHeader header)
        {
            _memberEncoder = target.CreateEncoder();
            _memberEncoder.WriteHeader(new ArrayBufferWriter<byte>(), HeaderOrganization(header, hasMembers: true), int.MaxValue);
        }

        public void AddMember(in MemberView member)
        {
            _written += _memberEncoder!.WriteMember(_output, member);
            if (_output.Buffered >= chunkSize)
            {
                _output.Push();
            }
        }

        public void Complete(OrganizationHeader header) => _final = header;

        // The header, with the final id, tags and count, goes before the members; the footer after them. The formats
        // that state the count first have no footer (the payload ends with the last member), and the member encoder,
        // told of no real count, could not end one.
        public async Task<long> FinishAsync(CancellationToken cancellationToken)
        {
            var first = new ArrayBufferWriter<byte>();
            if (_memberEncoder is null)
            {
                _written += _encoder.WriteHeader(first, HeaderOrganization(_final, _final.HasMembers), 0);
                _written += _encoder.WriteFooter(first);
            }
            else
            {
                _written += _encoder.WriteHeader(first, HeaderOrganization(_final, hasMembers: true), _final.MemberCount);
                if (!target.MemberCountComesFirst)
                {
                    _written += _memberEncoder.WriteFooter(_output);
                }
            }

            await _output.CompleteAsync(first.WrittenMemory, cancellationToken);
            return _written;
        }

        public void Dispose() => _output.Dispose();

        private static Organization HeaderOrganization(OrganizationHeader header, bool hasMembers) =>
            new() { Id = header.Id, Tags = header.Tags!, Members = hasMembers ? [] : null };
    }
}
