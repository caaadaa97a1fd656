using System.Buffers;
using System.IO.Pipelines;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Converts a payload from one format to another as it streams: each member is decoded from the input, handed to the
/// target format's encoder in batches, and flushed to the output every chunk, as <see cref="OrganizationStreamWriter"/>
/// does for downloads; no member is kept once it is written. The first chunk is held back until it is full, so an
/// input found bad within it leaves the output untouched (a server can still answer 4xx); after that the caller must
/// treat a failure as a broken output (a server aborts the response).
/// </summary>
/// <remarks>
/// MessagePack and the binary format state the member count before the members, and JSON and protobuf do not. From
/// those into these, the members are encoded into a temporary file (deleted on close) while they are read, and the
/// header with the count and then the file are written once the input has ended: memory stays constant, the output
/// starts only after the whole input has been read. Every other pair streams directly.
/// JSON and protobuf may also put the id and tags after the members; a direct conversion has already written its
/// header by then, so such an input is refused (Malformed) unless the values are the ones already written.
/// </remarks>
public static class OrganizationStreamConverter
{
    private const int MembersPerBatch = 64;

    /// <summary>Converts the payload in <paramref name="input"/> from <paramref name="source"/>'s format to <paramref name="target"/>'s.</summary>
    /// <returns>The bytes read and the bytes written.</returns>
    /// <exception cref="WireFormatException">The input is not a valid payload, or breaks a limit.</exception>
    /// <exception cref="OperationCanceledException">The token was cancelled or the output's reader went away.</exception>
    public static async Task<(long BytesRead, long BytesWritten)> ConvertAsync(
        PipeReader input,
        IWireFormatCodec source,
        DecodeLimits limits,
        IWireFormatCodec target,
        PipeWriter output,
        CancellationToken cancellationToken,
        int chunkSize = OrganizationStreamWriter.DefaultChunkSize)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(output);
        await using var conversion = new Conversion(target, output, chunkSize);
        var bytesRead = await OrganizationStreamReader.ReadToEndAsync(input, source.CreateDecoder(limits, conversion), conversion.AfterBlockAsync, cancellationToken);
        var bytesWritten = await conversion.FinishAsync(cancellationToken);
        return (bytesRead, bytesWritten);
    }

    private sealed class Conversion : IOrganizationSink, IAsyncDisposable
    {
        private readonly IWireFormatCodec _target;
        private readonly PipeWriter _output;
        private readonly int _chunkSize;
        private readonly IOrganizationEncoder _encoder;
        private readonly HeldBackBufferWriter _held;
        private readonly LargeSegmentBufferWriter _buffers;
        private readonly Member[] _batch = new Member[MembersPerBatch];
        private int _batched;
        private long _pending;
        private long _written;
        private OrganizationHeader? _begun;
        private OrganizationHeader _final;

        // Where members are encoded: the output, or the spool file when the header has to wait for the count.
        private IOrganizationEncoder? _memberEncoder;
        private IBufferWriter<byte>? _memberOutput;
        private FileStream? _spoolFile;
        private PipeWriter? _spool;

        public Conversion(IWireFormatCodec target, PipeWriter output, int chunkSize)
        {
            _target = target;
            _output = output;
            _chunkSize = chunkSize;
            _encoder = target.CreateEncoder();
            _held = new HeldBackBufferWriter(output);
            _buffers = new LargeSegmentBufferWriter(_held, OrganizationStreamWriter.SegmentSize);
        }

        public void BeginMembers(OrganizationHeader header)
        {
            _begun = header;
            if (_target.MemberCountComesFirst && header.MemberCount < 0)
            {
                _spoolFile = new FileStream(
                    Path.Combine(Path.GetTempPath(), Path.GetRandomFileName()),
                    FileMode.CreateNew,
                    FileAccess.ReadWrite,
                    FileShare.None,
                    bufferSize: 0,
                    FileOptions.DeleteOnClose | FileOptions.Asynchronous);
                _spool = PipeWriter.Create(_spoolFile, new StreamPipeWriterOptions(leaveOpen: true));

                // The members of these formats are encoded the same whatever the header says; this header is dropped,
                // and the one written once the count is known comes from the output's own encoder.
                _memberEncoder = _target.CreateEncoder();
                _memberEncoder.WriteHeader(new ArrayBufferWriter<byte>(), HeaderOrganization(header, hasMembers: true), int.MaxValue);
                _memberOutput = new LargeSegmentBufferWriter(_spool, OrganizationStreamWriter.SegmentSize);
                return;
            }

            _memberEncoder = _encoder;
            _memberOutput = _buffers;
            _pending += _encoder.WriteHeader(_buffers, HeaderOrganization(header, hasMembers: true), Math.Max(0, header.MemberCount));
        }

        public void AddMember(Member member)
        {
            _batch[_batched++] = member;
            if (_batched == MembersPerBatch)
            {
                WriteBatch();
            }
        }

        public void Complete(OrganizationHeader header) => _final = header;

        public async ValueTask AfterBlockAsync(CancellationToken cancellationToken)
        {
            if (_pending < _chunkSize)
            {
                return;
            }

            _written += _pending;
            _pending = 0;
            if (_spool is not null)
            {
                await _spool.FlushAsync(cancellationToken);
                return;
            }

            _held.Release();
            ThrowIfReaderGone(await _output.FlushAsync(cancellationToken), cancellationToken);
        }

        public async Task<long> FinishAsync(CancellationToken cancellationToken)
        {
            WriteBatch();
            if (_begun is null)
            {
                _pending += _encoder.WriteHeader(_buffers, HeaderOrganization(_final, _final.HasMembers), 0);
                _pending += _encoder.WriteFooter(_buffers);
            }
            else if (_spool is not null)
            {
                // The spooled members are counted in _pending already, as they were encoded.
                await _spool.FlushAsync(cancellationToken);
                await _spool.CompleteAsync();
                _pending += _encoder.WriteHeader(_buffers, HeaderOrganization(_final, hasMembers: true), _final.MemberCount);
                _held.Release();
                _spoolFile!.Position = 0;

                // These formats have no footer: the payload ends with the last member.
                await _spoolFile.CopyToAsync(_output, cancellationToken);
            }
            else
            {
                if (!_final.HasSameIdAndTags(_begun.Value))
                {
                    throw new WireFormatException(
                        WireFormatError.Malformed,
                        "The organization's id or tags come after its members, and a conversion streams each member on as it is read, after the id and tags; put them before the members.");
                }

                _pending += _encoder.WriteFooter(_buffers);
            }

            _held.Release();
            _written += _pending;
            _pending = 0;
            ThrowIfReaderGone(await _output.FlushAsync(cancellationToken), cancellationToken);
            return _written;
        }

        public async ValueTask DisposeAsync()
        {
            _held.Dispose();
            if (_spoolFile is not null)
            {
                await _spoolFile.DisposeAsync();
            }
        }

        private void WriteBatch()
        {
            if (_batched == 0)
            {
                return;
            }

            _pending += _memberEncoder!.WriteMembers(_memberOutput!, _batch.AsSpan(0, _batched));
            Array.Clear(_batch, 0, _batched);
            _batched = 0;
        }

        private static Organization HeaderOrganization(OrganizationHeader header, bool hasMembers) =>
            new() { Id = header.Id, Tags = header.Tags!, Members = hasMembers ? [] : null };

        // Completed means the reader (the client's connection) is gone: stop converting rather than fill memory no one reads.
        private static void ThrowIfReaderGone(FlushResult result, CancellationToken cancellationToken)
        {
            if (result.IsCanceled || result.IsCompleted)
            {
                throw new OperationCanceledException("The reader stopped reading the payload.", cancellationToken);
            }
        }
    }
}
