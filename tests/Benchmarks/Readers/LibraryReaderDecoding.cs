using System.Buffers;
using System.Text.Unicode;
using MessagePack;

namespace WebSerialization.Benchmarks.Readers;

/// <summary>
/// A MessagePack payload's members read with MessagePack-CSharp's <see cref="MessagePackReader"/> into a sink, as a
/// decoder built on it would. A member cut short by the end of a chunk throws <see cref="EndOfStreamException"/> (the
/// reader's only way to say "need more bytes") and is read again with the next. Texts are checked with
/// <see cref="Utf8.IsValid"/> and nothing else is, so this is the library's best case.
/// </summary>
internal static class LibraryReaderDecoding
{
    public static void Decode(ReadOnlySequence<byte> payload, int chunkSize, IOrganizationSink sink)
    {
        var texts = new TextBuffers();
        long consumed = 0;
        long delivered = 0;
        var membersLeft = -1;
        while (membersLeft != 0)
        {
            delivered = Math.Min(delivered + chunkSize, payload.Length);
            var reader = new MessagePackReader(payload.Slice(consumed, delivered - consumed));
            var unitEnd = 0L;
            try
            {
                if (membersLeft < 0)
                {
                    membersLeft = ReadHeader(ref reader, sink);
                    unitEnd = reader.Consumed;
                }

                for (; membersLeft > 0; membersLeft--)
                {
                    ReadMember(ref reader, sink, texts);
                    unitEnd = reader.Consumed;
                }
            }
            catch (EndOfStreamException) when (delivered < payload.Length)
            {
            }

            consumed += unitEnd;
        }

        sink.Complete(default);
    }

    // [Id, Tags, Members] up to the members' array header; returns the member count.
    private static int ReadHeader(ref MessagePackReader reader, IOrganizationSink sink)
    {
        if (reader.ReadArrayHeader() != 3)
        {
            throw new InvalidDataException("Not an organization.");
        }

        var id = reader.ReadInt32();
        if (!reader.TryReadNil())
        {
            for (var tags = reader.ReadArrayHeader(); tags > 0; tags--)
            {
                reader.ReadString();
            }
        }

        // TryReadArrayHeader, not ReadArrayHeader: the latter wants a byte per element already there.
        if (!reader.TryReadArrayHeader(out var count))
        {
            throw new EndOfStreamException();
        }

        sink.BeginMembers(new OrganizationHeader(id, null, count));
        return count;
    }

    private static void ReadMember(ref MessagePackReader reader, IOrganizationSink sink, TextBuffers texts)
    {
        if (reader.ReadArrayHeader() != 6)
        {
            throw new InvalidDataException("Not a member.");
        }

        var id = reader.ReadInt32();
        var name = ReadText(ref reader, ref texts.Name);
        var description = ReadText(ref reader, ref texts.Description);
        var address = ReadText(ref reader, ref texts.Address);
        var value = reader.ReadDouble();
        var updateTime = reader.ReadInt64();
        sink.AddMember(new MemberView(id, name, description, address, value, updateTime));
    }

    private static Utf8Text ReadText(ref MessagePackReader reader, ref byte[] buffer)
    {
        if (reader.TryReadNil())
        {
            return Utf8Text.Null;
        }

        if (!reader.TryReadStringSpan(out var span))
        {
            var sequence = reader.ReadStringSequence()!.Value;
            if (buffer.Length < sequence.Length)
            {
                buffer = new byte[sequence.Length];
            }

            sequence.CopyTo(buffer);
            span = buffer.AsSpan(0, (int)sequence.Length);
        }

        if (!Utf8.IsValid(span))
        {
            throw new InvalidDataException("Not UTF-8.");
        }

        return new Utf8Text(span);
    }

    private sealed class TextBuffers
    {
        public byte[] Name = [];
        public byte[] Description = [];
        public byte[] Address = [];
    }
}
