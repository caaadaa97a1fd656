using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Grpc.Core;
using Microsoft.Extensions.Options;
using ProtoBuf.Grpc;
using WebSerialization.Api.Limits;
using WebSerialization.Api.Organizations;
using WebSerialization.Models;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.GrpcContract;
using WebSerialization.Models.Protobuf;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Api.GrpcService;

/// <summary>
/// <see cref="IOrganizationService"/> over the seed organization. The stream reuses one message and one member list
/// for every batch: gRPC serializes each message before it asks for the next, so a streamed organization allocates
/// a few objects, not one list per batch. The upload reads each message as bytes and decodes it as
/// <c>POST /api/organization</c> decodes a body, with the same limits and summary: it builds no member, and holds one
/// message at a time whatever the organization's size.
/// </summary>
public sealed partial class OrganizationGrpcService(
    SeedOrganization seed,
    IOptions<GrpcOptions> options,
    IOptions<UploadLimitsOptions> uploadLimits,
    IOptions<HeavyRequestOptions> heavyRequests,
    ILogger<OrganizationGrpcService> logger) : IOrganizationService
{
    /// <inheritdoc />
    public ValueTask<Organization> GetOrganizationAsync(OrganizationRequest request, CallContext context = default)
    {
        var count = MemberCount(request);
        var organization = seed.Value;
        var answer = count == seed.MemberCount
            ? organization
            : new Organization { Id = organization.Id, Tags = organization.Tags, Members = organization.Members!.GetRange(0, count) };

        // gRPC's own refusal does not say which setting to raise; measuring first (string lengths only) lets this one say it.
        var limit = options.Value.MaxSendMessageBytes;
        var size = OrganizationMarshallerFactory.MessageSize(answer);
        if (size > limit)
        {
            throw new RpcException(new Status(
                StatusCode.ResourceExhausted,
                string.Create(CultureInfo.InvariantCulture, $"The organization with {count} members is {size} bytes, over {GrpcOptions.Key(nameof(GrpcOptions.MaxSendMessageBytes))} ({limit} bytes). Ask for fewer members, use StreamOrganization, or raise the setting.")));
        }

        return ValueTask.FromResult(answer);
    }

    /// <inheritdoc />
    public async IAsyncEnumerable<OrganizationPart> StreamOrganizationAsync(OrganizationRequest request, CallContext context = default)
    {
        var count = MemberCount(request);
        var cancellation = context.CancellationToken;
        var organization = seed.Value;
        var batchSize = options.Value.BatchSize;
        var members = organization.Members!;
        var sent = 0;
        try
        {
            var part = new OrganizationPart { Id = organization.Id, Tags = organization.Tags };
            yield return part;

            var batch = new List<Member>(Math.Min(batchSize, count));
            part.Id = 0;
            part.Tags = null;
            part.Members = batch;
            while (sent < count)
            {
                cancellation.ThrowIfCancellationRequested();
                var size = Math.Min(batchSize, count - sent);
                batch.Clear();
                batch.AddRange(CollectionsMarshal.AsSpan(members).Slice(sent, size));
                sent += size;
                yield return part;
            }
        }
        finally
        {
            if (sent < count)
            {
                LogStreamStopped(logger, count, sent);
            }
        }
    }

    /// <summary>
    /// Over gRPC this operation is bound to <see cref="UploadAsync"/> (<see cref="OrganizationUploadMethodProvider"/>);
    /// called in process, each part is written as the marshaller writes it and read the same way.
    /// </summary>
    public async ValueTask<UploadSummary> UploadOrganizationAsync(IAsyncEnumerable<OrganizationPart> parts, CallContext context = default)
    {
        ArgumentNullException.ThrowIfNull(parts);
        return await UploadAsync(PayloadsOf(parts, context.CancellationToken), context.CancellationToken);
    }

    /// <summary>
    /// Reads an upload: each message's bytes go to the protobuf decoder in turn, with the limits and the summary of
    /// <c>POST /api/organization</c>. The parts' bytes concatenated are one <c>Organization</c> message, so one decoder
    /// reads them all and a limit counts across messages; a message must hold whole fields.
    /// </summary>
    internal Task<UploadSummary> UploadAsync(IAsyncStreamReader<OrganizationPartPayload> parts, ServerCallContext context) =>
        UploadAsync(parts.ReadAllAsync(CancellationToken.None), context.CancellationToken);

    private async Task<UploadSummary> UploadAsync(IAsyncEnumerable<OrganizationPartPayload> parts, CancellationToken cancellationToken)
    {
        var limits = uploadLimits.Value;
        var summarizer = new OrganizationSummarizer();
        var decoder = ProtobufCodec.Instance.CreateDecoder(limits.ToDecodeLimits(), summarizer);
        long bytesRead = 0;
        Stopwatch? stopwatch = null;

        // Kestrel's minimum request-body rate does not time an HTTP/2 stream that sends nothing, so the upload keeps
        // the same rule itself: after the grace, the bytes so far must average the minimum rate, or the call ends.
        var rate = heavyRequests.Value;
        using var slowSender = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var started = Stopwatch.StartNew();

        // What a message left inside a field it did not finish: the end of the upload if no message follows
        // (Truncated, as a body cut there is), a malformed part if one does.
        var rest = ReadOnlySequence<byte>.Empty;
        try
        {
            await using var reader = parts.GetAsyncEnumerator(slowSender.Token);
            while (await ReadNextAsync(reader, slowSender, rate, bytesRead, started, cancellationToken))
            {
                using var part = reader.Current;
                if (!rest.IsEmpty)
                {
                    throw new WireFormatException(WireFormatError.Malformed, "An upload message ends inside a field; each OrganizationPart holds whole fields.", bytesRead);
                }

                stopwatch ??= Stopwatch.StartNew();
                bytesRead += part.Length;
                var bytes = part.Bytes;
                rest = bytes.Slice(decoder.Decode(bytes, isFinalBlock: false));
                if (!rest.IsEmpty)
                {
                    rest = new ReadOnlySequence<byte>(rest.ToArray());
                }
            }

            decoder.Decode(rest, isFinalBlock: true);
        }
        catch (WireFormatException exception)
        {
            throw Refusal(exception, limits);
        }

        return summarizer.ToSummary(WireFormat.Protobuf, bytesRead, stopwatch?.Elapsed ?? TimeSpan.Zero);
    }

    // gRPC reads each message here: its refusal of one over the size limit is turned into one that says what to change,
    // and a sender that falls below the minimum rate while it is awaited is cut, as Kestrel cuts a slow HTTP body.
    private async ValueTask<bool> ReadNextAsync(
        IAsyncEnumerator<OrganizationPartPayload> reader, CancellationTokenSource slowSender, HeavyRequestOptions rate, long bytesRead, Stopwatch started, CancellationToken call)
    {
        if (rate.MinDataRateBytesPerSecond > 0)
        {
            var due = TimeSpan.FromSeconds(Math.Max(rate.MinDataRateGraceSeconds, (double)bytesRead / rate.MinDataRateBytesPerSecond));
            var elapsed = started.Elapsed;
            slowSender.CancelAfter(due > elapsed ? due - elapsed : TimeSpan.Zero);
        }

        try
        {
            return await reader.MoveNextAsync();
        }
        catch (OperationCanceledException) when (slowSender.IsCancellationRequested && !call.IsCancellationRequested)
        {
            var seconds = started.Elapsed.TotalSeconds;
            LogSlowSender(logger, seconds, bytesRead, rate.MinDataRateBytesPerSecond);
            throw new RpcException(new Status(
                StatusCode.DeadlineExceeded,
                string.Create(CultureInfo.InvariantCulture, $"The upload sent {bytesRead} bytes in {seconds:0.0} s, on average below {UploadLimitsOptions.Key(nameof(HeavyRequestOptions.MinDataRateBytesPerSecond))} ({rate.MinDataRateBytesPerSecond} bytes/s).")));
        }
        catch (RpcException exception) when (exception.StatusCode == StatusCode.ResourceExhausted)
        {
            throw new RpcException(new Status(
                StatusCode.ResourceExhausted,
                string.Create(CultureInfo.InvariantCulture, $"An upload message is over {GrpcOptions.Key(nameof(GrpcOptions.MaxReceiveMessageBytes))} ({options.Value.MaxReceiveMessageBytes} bytes): send smaller batches, or raise the setting.")));
        }
    }

    // What POST /api/organization answers as problem details, as a gRPC status: a limit is RESOURCE_EXHAUSTED (413 there)
    // naming the setting, anything else INVALID_ARGUMENT (400); the trailers carry the problem's limit and offset.
    private static RpcException Refusal(WireFormatException exception, UploadLimitsOptions limits)
    {
        var trailers = new Metadata();
        if (exception.Offset is { } offset)
        {
            trailers.Add("offset", offset.ToString(CultureInfo.InvariantCulture));
        }

        if (exception.Error != WireFormatError.LimitExceeded)
        {
            return new RpcException(new Status(StatusCode.InvalidArgument, $"The upload is not a valid protobuf organization: {exception.Message}"), trailers);
        }

        trailers.Add("limit", exception.Limit ?? string.Empty);
        var setting = exception.Limit is { } limit && limits.ValueOf(limit) is { } value
            ? string.Create(CultureInfo.InvariantCulture, $" The server allows {UploadLimitsOptions.Key(limit)} ({value}).")
            : string.Empty;
        return new RpcException(new Status(StatusCode.ResourceExhausted, exception.Message + setting), trailers);
    }

    private static async IAsyncEnumerable<OrganizationPartPayload> PayloadsOf(IAsyncEnumerable<OrganizationPart> parts, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var encoder = ProtobufCodec.Instance.CreateEncoder();
        var output = new ArrayBufferWriter<byte>();
        await foreach (var part in parts.WithCancellation(cancellationToken))
        {
            output.ResetWrittenCount();
            encoder.WriteHeader(output, new Organization { Id = part.Id, Tags = part.Tags }, 0);
            encoder.WriteMembers(output, CollectionsMarshal.AsSpan(part.Members));
            yield return OrganizationPartPayload.CopyOf(new ReadOnlySequence<byte>(output.WrittenMemory));
        }
    }

    private int MemberCount(OrganizationRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var available = seed.MemberCount;
        return request.Count switch
        {
            0 => available,
            > 0 when request.Count <= available => request.Count,
            _ => throw new RpcException(new Status(
                StatusCode.InvalidArgument,
                string.Create(CultureInfo.InvariantCulture, $"count must be from 1 to {available} (0 means all of them); got {request.Count}."))),
        };
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "gRPC upload cut: {BytesRead} bytes in {Seconds:0.0} s, on average below the minimum rate of {MinBytesPerSecond} bytes/s")]
    private static partial void LogSlowSender(ILogger logger, double seconds, long bytesRead, int minBytesPerSecond);

    [LoggerMessage(Level = LogLevel.Debug, Message = "gRPC stream of {Count} members stopped after {Sent}: the call was cancelled or its deadline passed")]
    private static partial void LogStreamStopped(ILogger logger, int count, int sent);
}
