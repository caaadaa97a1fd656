using System.Buffers;
using Grpc.Core;

namespace WebSerialization.Api.GrpcService;

/// <summary>
/// One <c>OrganizationPart</c> message of an upload as its protobuf bytes, copied out of the request into a pooled
/// buffer: the server hands each to the protobuf decoder, as <c>POST /api/organization</c> hands it a body's bytes,
/// instead of building the part's members. <see cref="Dispose"/> gives the buffer back.
/// </summary>
internal sealed class OrganizationPartPayload : IDisposable
{
    private byte[]? _buffer;

    private OrganizationPartPayload(byte[] buffer, int length)
    {
        _buffer = buffer;
        Length = length;
    }

    /// <summary>Reads a message as its bytes; writes one as they are (for a client that sends them).</summary>
    public static Marshaller<OrganizationPartPayload> Marshaller { get; } = new(Write, Read);

    /// <summary>The message's size in bytes.</summary>
    public int Length { get; }

    /// <summary>The message's bytes, until <see cref="Dispose"/>.</summary>
    public ReadOnlySequence<byte> Bytes => new(_buffer ?? throw new ObjectDisposedException(nameof(OrganizationPartPayload)), 0, Length);

    /// <summary>A payload of <paramref name="bytes"/>, copied.</summary>
    public static OrganizationPartPayload CopyOf(ReadOnlySequence<byte> bytes)
    {
        var length = checked((int)bytes.Length);
        var buffer = ArrayPool<byte>.Shared.Rent(length);
        bytes.CopyTo(buffer);
        return new OrganizationPartPayload(buffer, length);
    }

    public void Dispose()
    {
        if (_buffer is { } buffer)
        {
            _buffer = null;
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static OrganizationPartPayload Read(DeserializationContext context) => CopyOf(context.PayloadAsReadOnlySequence());

    private static void Write(OrganizationPartPayload payload, SerializationContext context)
    {
        context.SetPayloadLength(payload.Length);
        var output = context.GetBufferWriter();
        foreach (var segment in payload.Bytes)
        {
            output.Write(segment.Span);
        }

        context.Complete();
    }
}
