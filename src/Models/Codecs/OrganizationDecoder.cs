using System.Buffers;
using System.Runtime.ExceptionServices;

namespace WebSerialization.Models.Codecs;

/// <summary>
/// What every format's decoder shares: the organization read so far (id, tags, the declared and decoded member
/// counts), the bytes consumed by earlier calls, the first error (after which every call fails with it), the sink, and
/// how the bytes of a call are offered to the format. A format reads whole units (a member, a tag, a token) and leaves
/// an unfinished one to the next call; a long one is offered again only once the unconsumed bytes have grown by a
/// quarter, so one trickled in a byte at a time costs linear, not quadratic, time.
/// </summary>
internal abstract class OrganizationDecoder : IOrganizationDecoder
{
    // Units shorter than this are read again on every call: re-reading them costs little, and a seed-shaped member is
    // then consumed as soon as it is whole.
    private const int MinPendingToDefer = 1024;

    // A unit that straddles two segments is first tried in this many bytes, then in twice as many, and so on.
    private const int FirstStraddleWindow = 256;

    private readonly OrganizationCollector? _collector;
    private readonly int _minMemberBytes;
    private ExceptionDispatchInfo? _fault;
    private long _pendingAfterLastRead;
    private byte[] _scratch = [];

    /// <summary>Creates the shared state; a null <paramref name="sink"/> means build the organization (<see cref="GetResult"/>).</summary>
    /// <param name="limits">What the payload may hold.</param>
    /// <param name="sink">Where the members go.</param>
    /// <param name="minMemberBytes">The fewest bytes a member takes in the format, which bounds what a declared count may reserve.</param>
    protected OrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink, int minMemberBytes)
    {
        ArgumentNullException.ThrowIfNull(limits);
        Limits = limits;
        (Sink, _collector) = OrganizationCollector.Unless(sink);
        _minMemberBytes = minMemberBytes;
    }

    public bool IsComplete { get; private set; }

    protected DecodeLimits Limits { get; }

    protected IOrganizationSink Sink { get; }

    /// <summary>Bytes consumed by earlier calls: the payload offset of the first byte of this call's buffer.</summary>
    protected long Consumed { get; private set; }

    /// <summary>The organization's id as read so far.</summary>
    protected int Id { get; set; }

    /// <summary>The tags once read (null while none or null); <see cref="AddTag"/> collects them.</summary>
    protected string?[]? Tags { get; private set; }

    /// <summary>How many tags <see cref="AddTag"/> has collected.</summary>
    protected int TagsRead => _tags?.Count ?? 0;

    /// <summary>The member count the payload declared, or -1 while none was (or Members is null).</summary>
    protected int MemberCount { get; set; } = -1;

    /// <summary>Members handed to the sink so far.</summary>
    protected int MembersDecoded { get; private set; }

    private List<string?>? _tags;

    public Organization GetResult() => OrganizationCollector.ResultOf(_collector, IsComplete);

    public SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock)
    {
        _fault?.Throw();
        try
        {
            if (IsComplete)
            {
                RejectBytesAfterPayload(buffer, 0);
                Consumed += buffer.Length;
                return buffer.End;
            }

            if (!isFinalBlock && _pendingAfterLastRead >= MinPendingToDefer
                && buffer.Length < _pendingAfterLastRead + (_pendingAfterLastRead / 4) && buffer.Length <= MaxPendingBytes)
            {
                return buffer.Start;
            }

            _collector?.SetCapacityHint((Consumed + buffer.Length) / _minMemberBytes);
            var consumed = DecodeSpans(buffer);
            if (!IsComplete && buffer.Length - consumed > MaxPendingBytes)
            {
                RefuseOverlongUnit(Consumed + consumed);
            }

            if (IsComplete && consumed < buffer.Length)
            {
                RejectBytesAfterPayload(buffer.Slice(consumed), consumed);
                consumed = buffer.Length;
            }
            else if (isFinalBlock && !IsComplete)
            {
                EndOfPayload(buffer.Length - consumed, buffer.Length);
            }

            _pendingAfterLastRead = buffer.Length - consumed;
            Consumed += consumed;
            return buffer.GetPosition(consumed);
        }
        catch (WireFormatException exception)
        {
            _fault = ExceptionDispatchInfo.Capture(exception);
            throw;
        }
    }

    /// <summary>
    /// Decodes whole units from the start of <paramref name="span"/>, whose first byte is at <paramref name="offset"/>
    /// in the payload, and returns the bytes they took; 0 when the first is unfinished.
    /// </summary>
    protected abstract int DecodeUnits(ReadOnlySpan<byte> span, long offset);

    /// <summary>A unit still unfinished after more than <see cref="MaxPendingBytes"/> bytes, at <paramref name="offset"/>: longer than the format allows.</summary>
    protected virtual void RefuseOverlongUnit(long offset) =>
        WireFormatThrow.LimitExceeded(offset, nameof(DecodeLimits.MaxStringBytes), $"A unit is longer than the {MaxPendingBytes} bytes this format allows.");

    // Offers the buffer to DecodeUnits one segment at a time; a unit that straddles two segments is copied to a scratch
    // buffer that grows only as far as that unit needs. Returns the bytes consumed.
    private long DecodeSpans(ReadOnlySequence<byte> buffer)
    {
        var remaining = buffer;
        while (!IsComplete && !remaining.IsEmpty)
        {
            var offset = Consumed + (buffer.Length - remaining.Length);
            var span = remaining.FirstSpan;
            var used = DecodeUnits(span, offset);
            if (used == 0)
            {
                if (span.Length == remaining.Length)
                {
                    break;
                }

                used = DecodeStraddlingUnit(remaining, offset);
                if (used == 0)
                {
                    break;
                }
            }

            remaining = remaining.Slice(used);
        }

        return buffer.Length - remaining.Length;
    }

    /// <summary>The most unconsumed bytes held before a unit is read again regardless of growth (a format's longest token).</summary>
    protected virtual long MaxPendingBytes => long.MaxValue;

    /// <summary>What the payload was in the middle of, for a Truncated message.</summary>
    protected abstract string DescribeUnfinished();

    /// <summary>The final block ended with <paramref name="unconsumed"/> bytes of an unfinished payload; by default Truncated.</summary>
    protected virtual void EndOfPayload(long unconsumed, long bufferLength) =>
        WireFormatThrow.Truncated(Consumed + bufferLength, $"The payload ends inside {DescribeUnfinished()}.");

    /// <summary>Bytes arrived after the complete payload, at <paramref name="offsetInBuffer"/>; by default Malformed.</summary>
    protected virtual void RejectBytesAfterPayload(ReadOnlySequence<byte> rest, long offsetInBuffer)
    {
        if (!rest.IsEmpty)
        {
            WireFormatThrow.Malformed(Consumed + offsetInBuffer, "Bytes follow the end of the payload; a payload holds exactly one organization.");
        }
    }

    /// <summary>Collects the next tag, held to <see cref="DecodeLimits.MaxTags"/> at <paramref name="offset"/>.</summary>
    protected void AddTag(string? tag, long offset)
    {
        EnsureRoomForTag(offset);
        (_tags ??= []).Add(tag);
    }

    /// <summary>
    /// Fails with <see cref="DecodeLimits.MaxTags"/> at <paramref name="offset"/> when one more tag would be too many:
    /// for a format that sees a tag start before its bytes have arrived.
    /// </summary>
    protected void EnsureRoomForTag(long offset)
    {
        if (TagsRead >= Limits.MaxTags)
        {
            WireFormatThrow.LimitExceeded(offset, nameof(DecodeLimits.MaxTags), $"More than MaxTags ({Limits.MaxTags}) tags.");
        }
    }

    /// <summary>Ends the tags: the ones collected, or none (an empty array) when <paramref name="isNull"/> is false and none came.</summary>
    protected void EndTags(bool isNull = false) => Tags = isNull ? null : [.. _tags ?? []];

    /// <summary>Tells the sink the members start; <paramref name="declaredCount"/> is -1 when the format declares none.</summary>
    protected void BeginMembers(int declaredCount)
    {
        MemberCount = declaredCount;
        Sink.BeginMembers(new OrganizationHeader(Id, Tags ?? (_tags is null ? null : [.. _tags]), declaredCount));
    }

    /// <summary>Hands the next member to the sink.</summary>
    protected void AddMember(in MemberView member)
    {
        MembersDecoded++;
        Sink.AddMember(member);
    }

    /// <summary>Ends the payload; <paramref name="memberCount"/> is -1 when Members is null.</summary>
    protected void Complete(int memberCount)
    {
        IsComplete = true;
        if (Tags is null && _tags is not null)
        {
            EndTags();
        }

        Sink.Complete(new OrganizationHeader(Id, Tags, memberCount));
    }

    // A unit is copied no further than MaxPendingBytes (and one byte to tell that it ends there): one still unfinished
    // then is longer than the format allows, and stays pending for Decode to refuse (RefuseOverlongUnit).
    private int DecodeStraddlingUnit(ReadOnlySequence<byte> remaining, long offset)
    {
        var window = Math.Min(remaining.Length, MaxPendingBytes < long.MaxValue ? MaxPendingBytes + 1 : long.MaxValue);
        var size = (int)Math.Min(window, FirstStraddleWindow);
        while (true)
        {
            if (_scratch.Length < size)
            {
                _scratch = new byte[Math.Max(size, _scratch.Length * 2)];
            }

            remaining.Slice(0, size).CopyTo(_scratch);
            var used = DecodeUnits(new ReadOnlySpan<byte>(_scratch, 0, size), offset);
            if (used > 0 || size == window)
            {
                return used;
            }

            size = (int)Math.Min(window, 2L * size);
        }
    }
}
