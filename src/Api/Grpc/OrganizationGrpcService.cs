using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Grpc.Core;
using Microsoft.Extensions.Options;
using ProtoBuf;
using ProtoBuf.Grpc;
using WebSerialization.Api.Limits;
using WebSerialization.Api.Organizations;
using WebSerialization.Models;
using WebSerialization.Models.Grpc;

namespace WebSerialization.Api.Grpc;

/// <summary>
/// <see cref="IOrganizationService"/> over the seed organization. The stream reuses one message and one member list
/// for every batch: gRPC serializes each message before it asks for the next, so a streamed organization allocates
/// a few objects, not one list per batch. The upload folds each member into the checksum as it arrives and keeps
/// none of them, so it holds one batch at a time whatever the organization's size.
/// </summary>
public sealed partial class OrganizationGrpcService(
    SeedOrganization seed,
    IOptions<GrpcOptions> options,
    IOptions<UploadLimitsOptions> uploadLimits,
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

    /// <inheritdoc />
    public async ValueTask<UploadSummary> UploadOrganizationAsync(IAsyncEnumerable<OrganizationPart> parts, CallContext context = default)
    {
        ArgumentNullException.ThrowIfNull(parts);
        var limits = uploadLimits.Value;
        using var checksum = new OrganizationChecksumBuilder();
        var id = 0;
        List<string?>? tags = null;
        var hasMembers = false;
        long bytesRead = 0;
        Stopwatch? stopwatch = null;
        await using var reader = parts.GetAsyncEnumerator(context.CancellationToken);
        while (await ReadNextAsync(reader))
        {
            var part = reader.Current;
            stopwatch ??= Stopwatch.StartNew();
            bytesRead += part.PayloadLength;
            if (part.Id != 0)
            {
                id = part.Id;
            }

            if (part.Tags is { Length: > 0 } partTags)
            {
                tags ??= [];
                if (tags.Count + partTags.Length > limits.MaxTags)
                {
                    throw OverLimit($"More than Limits:MaxTags ({limits.MaxTags}) tags.");
                }

                foreach (var tag in partTags)
                {
                    CheckString(tag, limits);
                }

                tags.AddRange(partTags);
            }

            if (part.Members is { Count: > 0 } members)
            {
                hasMembers = true;
                if (checksum.MemberCount + members.Count > limits.MaxMembers)
                {
                    throw OverLimit($"More than Limits:MaxMembers ({limits.MaxMembers}) members.");
                }

                foreach (var member in members)
                {
                    CheckString(member.Name, limits);
                    CheckString(member.Description, limits);
                    CheckString(member.Address, limits);
                    checksum.Append(member);
                }
            }
        }

        var memberCount = checksum.MemberCount;
        return new UploadSummary(
            WireFormat.Protobuf.Key,
            memberCount,
            tags?.Count ?? 0,
            bytesRead,
            stopwatch?.Elapsed.TotalMilliseconds ?? 0,
            checksum.Complete(id, tags, hasMembers));
    }

    // gRPC reads and deserializes each message here: its refusals are turned into ones that say what to change.
    private async ValueTask<bool> ReadNextAsync(IAsyncEnumerator<OrganizationPart> reader)
    {
        try
        {
            return await reader.MoveNextAsync();
        }
        catch (RpcException exception) when (exception.StatusCode == StatusCode.ResourceExhausted)
        {
            throw new RpcException(new Status(
                StatusCode.ResourceExhausted,
                string.Create(CultureInfo.InvariantCulture, $"An upload message is over {GrpcOptions.Key(nameof(GrpcOptions.MaxReceiveMessageBytes))} ({options.Value.MaxReceiveMessageBytes} bytes): send smaller batches, or raise the setting.")));
        }
        catch (Exception exception) when (exception is ProtoException or EndOfStreamException or InvalidOperationException or OverflowException or ArgumentException or DecoderFallbackException)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, $"The upload is not a stream of OrganizationPart messages: {exception.Message}"));
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

    private static void CheckString(string? value, UploadLimitsOptions limits)
    {
        if (value is not null && value.Length > limits.MaxStringBytes / 3 && Encoding.UTF8.GetByteCount(value) > limits.MaxStringBytes)
        {
            throw OverLimit($"A string is over Limits:MaxStringBytes ({limits.MaxStringBytes} bytes).");
        }
    }

    private static RpcException OverLimit(string detail) => new(new Status(StatusCode.ResourceExhausted, detail));

    [LoggerMessage(Level = LogLevel.Debug, Message = "gRPC stream of {Count} members stopped after {Sent}: the call was cancelled or its deadline passed")]
    private static partial void LogStreamStopped(ILogger logger, int count, int sent);
}
