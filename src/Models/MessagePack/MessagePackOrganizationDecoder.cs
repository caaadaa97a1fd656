using System.Buffers;
using System.Runtime.CompilerServices;
using MessagePack;
using WebSerialization.Models.Codecs;
using static WebSerialization.Models.MessagePack.MessagePackValueReader;

namespace WebSerialization.Models.MessagePack;

/// <summary>
/// Decodes the array-keyed layout unit by unit over <see cref="BufferReader"/>: the organization's header, its id, each
/// tag, the members' header, each member; a unit the bytes cut short is left for the next call. Each member goes to the
/// sink as a <see cref="MemberView"/> whose texts are the input's own bytes, checked with <see cref="Utf8Text.IsWellFormed"/>.
/// Every value may come in any format the specification allows for it; every declared count and length is checked
/// against <see cref="DecodeLimits"/> as soon as its header is read, before its bytes arrive or anything is reserved.
/// Ours, not MessagePack-CSharp's <c>MessagePackReader</c>, which says "need more bytes" inside a value only by throwing
/// and is slower even over a whole payload (docs/results/messagepack-reader.md, from tests/Benchmarks <c>--readers</c>).
/// </summary>
internal sealed class MessagePackOrganizationDecoder : OrganizationDecoder
{
    // Fewest bytes a member takes: fixarray, fixint Id, three nils, float 32 Value, fixint UpdateTime. Bounds the
    // capacity reserved for a declared member count by the bytes at hand.
    private const int MinMemberBytes = 1 + 1 + 3 + 5 + 1;

    // How deep each array sits: the organization, its tags and members arrays, a member.
    private const int OrganizationDepth = 1;
    private const int CollectionDepth = 2;
    private const int MemberDepth = 3;

    // The first byte of a member as every encoder writes it: fixarray of 6.
    private const byte MemberFixArray = MessagePackCode.MinFixArray | MessagePackCodec.MemberFieldCount;

    private readonly int _maxStringBytes;
    private readonly bool _memberTooDeep;
    private Step _step;
    private int _declaredTags;

    public MessagePackOrganizationDecoder(DecodeLimits limits)
        : this(limits, null)
    {
    }

    public MessagePackOrganizationDecoder(DecodeLimits limits, IOrganizationSink? sink)
        : base(limits, sink, MinMemberBytes)
    {
        _maxStringBytes = limits.MaxStringBytes;
        _memberTooDeep = MemberDepth > limits.MaxDepth;
    }

    private enum Step
    {
        OrganizationHeader,
        OrganizationId,
        TagsHeader,
        Tag,
        MembersHeader,
        Member,
    }

    protected override int DecodeUnits(ReadOnlySpan<byte> span, long offset)
    {
        var reader = new BufferReader(span, offset);
        while (!IsComplete)
        {
            if (_step == Step.Member)
            {
                ReadMembers(ref reader);
                break;
            }

            var start = reader.Position;
            if (!TryReadHeaderUnit(ref reader))
            {
                reader.Position = start;
                break;
            }
        }

        return reader.Position;
    }

    protected override string DescribeUnfinished() => _step switch
    {
        Step.OrganizationHeader => "the organization's array header",
        Step.OrganizationId => "Organization.Id",
        Step.TagsHeader => "the tags array header",
        Step.Tag => $"tag {TagsRead} of {_declaredTags}",
        Step.MembersHeader => "the members array header",
        _ => $"member {MembersDecoded} of {MemberCount}",
    };

    // Reads the unit the current step expects, before the members, and moves to the next step; false if the bytes end inside it.
    private bool TryReadHeaderUnit(ref BufferReader reader)
    {
        var start = reader.Offset;
        switch (_step)
        {
            case Step.OrganizationHeader:
                if (!TryReadArrayHeader(ref reader, "the organization", nilAllowed: false, out var fields))
                {
                    return false;
                }

                CheckDepth(OrganizationDepth, start);
                if (fields != MessagePackCodec.OrganizationFieldCount)
                {
                    WireFormatThrow.Malformed(start, $"The organization is an array of {fields}; the layout has exactly {MessagePackCodec.OrganizationFieldCount} (Id, Tags, Members).");
                }

                _step = Step.OrganizationId;
                return true;

            case Step.OrganizationId:
                if (!TryReadInteger(ref reader, "Organization.Id", int.MinValue, int.MaxValue, out var id))
                {
                    return false;
                }

                Id = (int)id;
                _step = Step.TagsHeader;
                return true;

            case Step.TagsHeader:
                if (!TryReadArrayHeader(ref reader, "Organization.Tags", nilAllowed: true, out var tagCount))
                {
                    return false;
                }

                if (tagCount < 0)
                {
                    _step = Step.MembersHeader;
                    return true;
                }

                CheckDepth(CollectionDepth, start);
                CheckCount(tagCount, Limits.MaxTags, nameof(DecodeLimits.MaxTags), start);
                _declaredTags = (int)tagCount;
                _step = Step.Tag;
                EndTagsIfAllRead();
                return true;

            case Step.Tag:
                if (!TryReadText(ref reader, "a tag", _maxStringBytes, out var tag))
                {
                    return false;
                }

                AddTag(tag.ToStringOrNull(), start);
                EndTagsIfAllRead();
                return true;

            default:
                if (!TryReadArrayHeader(ref reader, "Organization.Members", nilAllowed: true, out var memberCount))
                {
                    return false;
                }

                if (memberCount < 0)
                {
                    Complete(-1);
                    return true;
                }

                CheckDepth(CollectionDepth, start);
                CheckCount(memberCount, Limits.MaxMembers, nameof(DecodeLimits.MaxMembers), start);
                BeginMembers((int)memberCount);
                _step = Step.Member;
                return true;
        }
    }

    private void EndTagsIfAllRead()
    {
        if (TagsRead == _declaredTags)
        {
            // Tags is string[]: a nil tag stays null, as MessagePack-CSharp would leave it.
            EndTags();
            _step = Step.MembersHeader;
        }
    }

    // Hands over every member there is room for, and completes the payload after the last.
    private void ReadMembers(ref BufferReader reader)
    {
        for (var left = MemberCount - MembersDecoded; left > 0; left--)
        {
            var start = reader.Position;
            if (!TryReadMember(ref reader))
            {
                reader.Position = start;
                return;
            }
        }

        Complete(MembersDecoded);
    }

    private bool TryReadMember(ref BufferReader reader)
    {
        var start = reader.Position;
        if (!reader.TryReadByte(out var code))
        {
            return false;
        }

        if (code != MemberFixArray || _memberTooDeep)
        {
            reader.Position = start;
            if (!TryReadMemberHeader(ref reader))
            {
                return false;
            }
        }

        if (!TryReadInteger(ref reader, "Member.Id", int.MinValue, int.MaxValue, out var id)
            || !TryReadText(ref reader, "Member.Name", _maxStringBytes, out var name)
            || !TryReadText(ref reader, "Member.Description", _maxStringBytes, out var description)
            || !TryReadText(ref reader, "Member.Address", _maxStringBytes, out var address)
            || !TryReadDouble(ref reader, "Member.Value", out var value)
            || !TryReadInteger(ref reader, "Member.UpdateTime", long.MinValue, long.MaxValue, out var updateTime))
        {
            return false;
        }

        AddMember(new MemberView((int)id, name, description, address, value, updateTime));
        return true;
    }

    // A member's header in any array format, held to the depth limit and to exactly six elements.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryReadMemberHeader(ref BufferReader reader)
    {
        var start = reader.Offset;
        if (!TryReadArrayHeader(ref reader, "a member", nilAllowed: false, out var fields))
        {
            return false;
        }

        CheckDepth(MemberDepth, start);
        if (fields != MessagePackCodec.MemberFieldCount)
        {
            WireFormatThrow.Malformed(start, $"A member is an array of {fields}; the layout has exactly {MessagePackCodec.MemberFieldCount} (Id, Name, Description, Address, Value, UpdateTime).");
        }

        return true;
    }

    private void CheckDepth(int depth, long start)
    {
        if (depth > Limits.MaxDepth)
        {
            WireFormatThrow.LimitExceeded(start, nameof(DecodeLimits.MaxDepth), $"Arrays nest {depth} deep here; the limit is {Limits.MaxDepth}.");
        }
    }

    private static void CheckCount(long count, int limit, string limitName, long start)
    {
        if (count > limit)
        {
            WireFormatThrow.LimitExceeded(start, limitName, $"An array declares {count} elements; the limit ({limitName}) is {limit}.");
        }
    }
}
