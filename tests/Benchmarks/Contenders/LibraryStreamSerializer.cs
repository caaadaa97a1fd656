namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// A library's <see cref="Stream"/> calls, as a .NET client of the API makes them over <c>HttpClient</c>'s response
/// stream; the read side is a socket's, not a <see cref="MemoryStream"/>, which the libraries read without copying.
/// </summary>
public sealed class LibraryStreamSerializer(
    string name, ContenderFamily family, string calls, Action<Stream, Organization> write, Func<Stream, Organization> read)
    : OrganizationSerializer(name, family, $"{calls}, the way a .NET client reads the API's response stream; the read side from a stream that returns at most " +
        $"{PreparedPayload.SegmentSize / 1024} KB per read, the write side into a stream that discards.")
{
    public override byte[] SerializeToArray(Organization organization)
    {
        using var stream = new MemoryStream();
        write(stream, organization);
        return stream.ToArray();
    }

    public override long Serialize(Organization organization)
    {
        var stream = new SocketStream([], 0);
        write(stream, organization);
        return stream.BytesWritten;
    }

    public override Organization Deserialize(PreparedPayload payload)
    {
        using var stream = new SocketStream(payload.Bytes, PreparedPayload.SegmentSize);
        return read(stream);
    }
}
