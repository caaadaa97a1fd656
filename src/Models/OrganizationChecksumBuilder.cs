using System.Buffers;
using System.Buffers.Binary;
using System.IO.Hashing;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models;

/// <summary>
/// Computes an <see cref="OrganizationChecksum"/> incrementally: append each member as it is decoded, then give the
/// organization's id and tags to <see cref="Complete"/>. Appending allocates nothing; members are encoded into a
/// buffer that is hashed whenever it fills. An instance is not thread-safe, and is ready for a new organization
/// after <see cref="Complete"/>.
/// </summary>
public sealed class OrganizationChecksumBuilder
{
    private const int BufferSize = 4096;
    private const byte MemberMarker = 0x01;
    private const byte EndOfMembers = 0x00;
    private const int Null = -1;

    // A member's bytes besides its texts' UTF-8: the marker, Id, three lengths, Value and UpdateTime.
    private const int MemberFixedBytes = 1 + sizeof(int) + (3 * sizeof(int)) + (2 * sizeof(long));

    // IEEE 754's canonical quiet NaN (what JavaScript and most C libraries produce); .NET's double.NaN has the sign bit set.
    private const long CanonicalNaNBits = 0x7FF8_0000_0000_0000;

    private readonly XxHash128 _hash = new();
    private readonly byte[] _buffer = new byte[BufferSize];
    private int _used;

    /// <summary>How many members have been appended since the last <see cref="Complete"/>.</summary>
    public int MemberCount { get; private set; }

    /// <summary>Folds in the next member.</summary>
    public void Append(Member member)
    {
        ArgumentNullException.ThrowIfNull(member);
        WriteByte(MemberMarker);
        WriteInt32(member.Id);
        WriteString(member.Name);
        WriteString(member.Description);
        WriteString(member.Address);
        WriteNumbers(member.Value, member.UpdateTime);
    }

    /// <summary>Folds in the next member, as a decoder hands it over; the same bytes as <see cref="Append(Member)"/>.</summary>
    public void Append(in MemberView member)
    {
        // The usual member is reserved once and written without a check per field.
        var size = MemberFixedBytes + member.Name.Bytes.Length + member.Description.Bytes.Length + member.Address.Bytes.Length;
        if (size <= BufferSize)
        {
            Reserve(size);
            var span = _buffer.AsSpan(_used, size);
            span[0] = MemberMarker;
            BinaryPrimitives.WriteInt32LittleEndian(span[1..], member.Id);
            var at = PutText(span, 1 + sizeof(int), member.Name);
            at = PutText(span, at, member.Description);
            at = PutText(span, at, member.Address);
            BinaryPrimitives.WriteInt64LittleEndian(span[at..], double.IsNaN(member.Value) ? CanonicalNaNBits : BitConverter.DoubleToInt64Bits(member.Value));
            BinaryPrimitives.WriteInt64LittleEndian(span[(at + sizeof(long))..], member.UpdateTime);
            _used += at + (2 * sizeof(long));
            MemberCount++;
            return;
        }

        WriteByte(MemberMarker);
        WriteInt32(member.Id);
        WriteText(member.Name);
        WriteText(member.Description);
        WriteText(member.Address);
        WriteNumbers(member.Value, member.UpdateTime);
    }

    /// <summary>Folds in the organization's own fields and returns the checksum as lowercase hex; then starts over.</summary>
    /// <param name="id">The organization's <see cref="Organization.Id"/>.</param>
    /// <param name="tags">Its <see cref="Organization.Tags"/>.</param>
    /// <param name="hasMembers">False when its <see cref="Organization.Members"/> is null (then no member may have been appended).</param>
    /// <exception cref="InvalidOperationException">Members were appended but <paramref name="hasMembers"/> is false.</exception>
    public string Complete(int id, IReadOnlyList<string?>? tags, bool hasMembers)
    {
        if (!hasMembers && MemberCount != 0)
        {
            throw new InvalidOperationException("Members were appended to an organization whose Members is null.");
        }

        WriteByte(EndOfMembers);
        WriteInt32(hasMembers ? MemberCount : Null);
        WriteInt32(id);
        if (tags is null)
        {
            WriteInt32(Null);
        }
        else
        {
            WriteInt32(tags.Count);
            for (var index = 0; index < tags.Count; index++)
            {
                WriteString(tags[index]);
            }
        }

        Flush();
        Span<byte> digest = stackalloc byte[_hash.HashLengthInBytes];
        _hash.GetHashAndReset(digest);
        MemberCount = 0;
        return Convert.ToHexStringLower(digest);
    }

    private void WriteByte(byte value)
    {
        Reserve(sizeof(byte));
        _buffer[_used++] = value;
    }

    private void WriteInt32(int value)
    {
        Reserve(sizeof(int));
        BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(_used), value);
        _used += sizeof(int);
    }

    private void WriteInt64(long value)
    {
        Reserve(sizeof(long));
        BinaryPrimitives.WriteInt64LittleEndian(_buffer.AsSpan(_used), value);
        _used += sizeof(long);
    }

    private void WriteNumbers(double value, long updateTime)
    {
        WriteInt64(double.IsNaN(value) ? CanonicalNaNBits : BitConverter.DoubleToInt64Bits(value));
        WriteInt64(updateTime);
        MemberCount++;
    }

    // (int32 byteCount, UTF-8 bytes), or int32 -1 for null, at `at` in span, which has room; returns the end.
    private static int PutText(Span<byte> span, int at, Utf8Text text)
    {
        var bytes = text.Bytes;
        BinaryPrimitives.WriteInt32LittleEndian(span[at..], text.IsNull ? Null : bytes.Length);
        CopyShort(bytes, span[(at + sizeof(int))..]);
        return at + sizeof(int) + bytes.Length;
    }

    // A member's text is usually 8 to 32 bytes: two overlapping loads and stores copy it without Span.CopyTo's call to
    // memmove, which measured slower per upload (benchmarks' --repeat "protobuf stream" summarize, with and without).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void CopyShort(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var length = source.Length;
        if (length < sizeof(ulong) || length > 2 * Vector128<byte>.Count || destination.Length < length)
        {
            source.CopyTo(destination);
            return;
        }

        ref var from = ref MemoryMarshal.GetReference(source);
        ref var to = ref MemoryMarshal.GetReference(destination);
        if (length <= Vector128<byte>.Count)
        {
            var head = Unsafe.ReadUnaligned<ulong>(ref from);
            var tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref from, length - sizeof(ulong)));
            Unsafe.WriteUnaligned(ref to, head);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref to, length - sizeof(ulong)), tail);
            return;
        }

        var first = Vector128.LoadUnsafe(ref from);
        var last = Vector128.LoadUnsafe(ref from, (nuint)(length - Vector128<byte>.Count));
        first.StoreUnsafe(ref to);
        last.StoreUnsafe(ref to, (nuint)(length - Vector128<byte>.Count));
    }

    private void WriteText(Utf8Text text)
    {
        if (text.IsNull)
        {
            WriteInt32(Null);
            return;
        }

        var bytes = text.Bytes;
        WriteInt32(bytes.Length);
        if (bytes.Length <= BufferSize)
        {
            Reserve(bytes.Length);
            bytes.CopyTo(_buffer.AsSpan(_used));
            _used += bytes.Length;
            return;
        }

        Flush();
        _hash.Append(bytes);
    }

    private void WriteString(string? value)
    {
        if (value is null)
        {
            WriteInt32(Null);
            return;
        }

        var maxBytes = Encoding.UTF8.GetMaxByteCount(value.Length);
        if (sizeof(int) + maxBytes <= BufferSize)
        {
            Reserve(sizeof(int) + maxBytes);
            var count = Encoding.UTF8.GetBytes(value, _buffer.AsSpan(_used + sizeof(int)));
            BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(_used), count);
            _used += sizeof(int) + count;
            return;
        }

        // Too long for the buffer: hash it from a pooled array of its own.
        var bytes = ArrayPool<byte>.Shared.Rent(maxBytes);
        try
        {
            var count = Encoding.UTF8.GetBytes(value, bytes);
            WriteInt32(count);
            Flush();
            _hash.Append(bytes.AsSpan(0, count));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(bytes);
        }
    }

    private void Reserve(int count)
    {
        if (_used + count > BufferSize)
        {
            Flush();
        }
    }

    private void Flush()
    {
        _hash.Append(_buffer.AsSpan(0, _used));
        _used = 0;
    }
}
