using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// Members copied out of a decoder's views into one pooled buffer, so that another thread can read them back as views
/// once the decoder has moved on. Each member is (int32 id, float64 value, int64 update time, and per text an int32
/// UTF-8 length, -1 for null, then its bytes), in the machine's byte order: the bytes never leave the process.
/// </summary>
internal sealed class MemberBatch : IDisposable
{
    private const int FixedBytes = sizeof(int) + sizeof(double) + sizeof(long) + (3 * sizeof(int));

    private byte[] _bytes;
    private int _length;

    /// <summary>A batch of at least <paramref name="capacity"/> bytes.</summary>
    public MemberBatch(int capacity) => _bytes = ArrayPool<byte>.Shared.Rent(capacity);

    /// <summary>Whether no member has been added since the last <see cref="Clear"/>.</summary>
    public bool IsEmpty => _length == 0;

    /// <summary>
    /// Copies <paramref name="member"/> in; false when it does not fit and the batch holds members already (a member
    /// larger than an empty batch makes the buffer larger, so every member fits an empty batch).
    /// </summary>
    public bool TryAdd(in MemberView member)
    {
        var name = member.Name;
        var description = member.Description;
        var address = member.Address;
        var needed = FixedBytes + name.Bytes.Length + description.Bytes.Length + address.Bytes.Length;
        if (needed > _bytes.Length - _length)
        {
            if (_length > 0)
            {
                return false;
            }

            ArrayPool<byte>.Shared.Return(_bytes);
            _bytes = ArrayPool<byte>.Shared.Rent(needed);
        }

        ref var start = ref MemoryMarshal.GetArrayDataReference(_bytes);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref start, _length), member.Id);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref start, _length + sizeof(int)), member.Value);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref start, _length + sizeof(int) + sizeof(double)), member.UpdateTime);
        _length += sizeof(int) + sizeof(double) + sizeof(long);
        AddText(name);
        AddText(description);
        AddText(address);
        return true;
    }

    /// <summary>
    /// The member at <paramref name="offset"/>, as a view of this batch's bytes, moving <paramref name="offset"/> to
    /// the next; false past the last member.
    /// </summary>
    public bool TryRead(ref int offset, out MemberView member)
    {
        if (offset >= _length)
        {
            member = default;
            return false;
        }

        ref var start = ref MemoryMarshal.GetArrayDataReference(_bytes);
        var id = Unsafe.ReadUnaligned<int>(ref Unsafe.Add(ref start, offset));
        var value = Unsafe.ReadUnaligned<double>(ref Unsafe.Add(ref start, offset + sizeof(int)));
        var updateTime = Unsafe.ReadUnaligned<long>(ref Unsafe.Add(ref start, offset + sizeof(int) + sizeof(double)));
        offset += sizeof(int) + sizeof(double) + sizeof(long);
        var name = ReadText(ref offset);
        var description = ReadText(ref offset);
        var address = ReadText(ref offset);
        member = new MemberView(id, name, description, address, value, updateTime);
        return true;
    }

    /// <summary>Empties the batch for reuse.</summary>
    public void Clear() => _length = 0;

    /// <summary>Returns the buffer to the pool.</summary>
    public void Dispose()
    {
        if (_bytes.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_bytes);
            _bytes = [];
            _length = 0;
        }
    }

    private void AddText(Utf8Text text)
    {
        var bytes = text.Bytes;
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_bytes), _length), text.IsNull ? -1 : bytes.Length);
        _length += sizeof(int);
        bytes.CopyTo(_bytes.AsSpan(_length));
        _length += bytes.Length;
    }

    private Utf8Text ReadText(ref int offset)
    {
        var length = Unsafe.ReadUnaligned<int>(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_bytes), offset));
        offset += sizeof(int);
        if (length < 0)
        {
            return Utf8Text.Null;
        }

        var text = new Utf8Text(new ReadOnlySpan<byte>(_bytes, offset, length));
        offset += length;
        return text;
    }
}
