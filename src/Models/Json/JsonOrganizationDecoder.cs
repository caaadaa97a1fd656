using System.Buffers;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Models.Json;

// PLACEHOLDER: being written.
internal sealed class JsonOrganizationDecoder(DecodeLimits limits) : IOrganizationDecoder
{
    public bool IsComplete => false;

    public SequencePosition Decode(ReadOnlySequence<byte> buffer, bool isFinalBlock) => throw new NotImplementedException(limits.ToString());

    public Organization GetResult() => throw new NotImplementedException();
}
