using System.Buffers;

namespace WebSerialization.Models.GrpcContract;

/// <summary>
/// Lets the protobuf writer, which reserves a member's worst-case size before writing it, write into an output that
/// holds exactly the message's length, as Grpc.Net.Client's does once the length is set. When the output has less
/// room than asked for, the writer gets a pooled scratch buffer whose bytes are copied to the output on
/// <see cref="Advance"/>; only the last few members of a message take that path.
/// </summary>
internal sealed class ExactSizeBufferWriter(IBufferWriter<byte> output) : IBufferWriter<byte>, IDisposable
{
    private byte[]? _scratch;
    private bool _scratchHandedOut;

    public void Advance(int count)
    {
        if (!_scratchHandedOut)
        {
            output.Advance(count);
            return;
        }

        _scratchHandedOut = false;
        output.Write(_scratch.AsSpan(0, count));
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        // A buffer handed out and not advanced is abandoned, as IBufferWriter allows.
        _scratchHandedOut = false;
        var memory = output.GetMemory(sizeHint);
        return memory.Length >= Math.Max(sizeHint, 1) ? memory : Scratch(sizeHint);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        _scratchHandedOut = false;
        var span = output.GetSpan(sizeHint);
        return span.Length >= Math.Max(sizeHint, 1) ? span : Scratch(sizeHint).Span;
    }

    public void Dispose()
    {
        if (_scratch is not null)
        {
            ArrayPool<byte>.Shared.Return(_scratch);
            _scratch = null;
        }
    }

    private Memory<byte> Scratch(int sizeHint)
    {
        if (_scratch is null || _scratch.Length < sizeHint)
        {
            Dispose();
            _scratch = ArrayPool<byte>.Shared.Rent(Math.Max(sizeHint, 256));
        }

        _scratchHandedOut = true;
        return _scratch;
    }
}
