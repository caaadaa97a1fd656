using CsCheck;

namespace WebSerialization.Codecs.Tests.Libraries;

/// <summary>
/// The libraries are the reference for every byte: over random organizations (<see cref="OrganizationGen"/>), our
/// streamed bodies are the library's bytes, the library reads them back, and our decoders read the library's bodies,
/// with exactly the differences <see cref="ReferenceLibrary"/> documents and no others. CsCheck prints the seed of a
/// failure; <c>CsCheck_Seed=... dotnet test</c> replays it, <c>CsCheck_Iter=10000</c> searches longer.
/// </summary>
public sealed class LibraryReferenceTests
{
    // Any chunk size, weighted to the small ones that cut a member, a string or a length prefix.
    private static readonly Gen<int> ChunkSize = Gen.Frequency((3, Gen.Int[1, 64]), (2, Gen.Int[65, 4096]), (1, Gen.Int[4097, 256 * 1024]));

    // The generator's longest strings (70,000 chars of up to 4 UTF-8 bytes) are over the server's default limit.
    private static readonly DecodeLimits Limits = DecodeLimits.Default with { MaxStringBytes = 1024 * 1024 };

    public static TheoryData<string> Libraries => ReferenceLibrary.Names;

    [Theory]
    [MemberData(nameof(Libraries))]
    public void OurStreamedBodyIsTheLibrarysBytesAtAnyChunkSize(string name)
    {
        var library = ReferenceLibrary.Named(name);
        Gen.Select(OrganizationGen.Organization, ChunkSize).Sample((organization, chunkSize) =>
        {
            var ours = WriteStreamed(library.Codec, organization, chunkSize);
            var theirs = library.Serialize(organization);
            var writtenAs = library.WrittenAs(organization);

            Assert.Equal(theirs, ReferenceEquals(writtenAs, organization) ? ours : WriteStreamed(library.Codec, writtenAs, chunkSize));

            // The documented difference is a real one: where it applies, the bytes do differ.
            Assert.Equal(!ReferenceEquals(writtenAs, organization), !ours.AsSpan().SequenceEqual(theirs));
        });
    }

    [Theory]
    [MemberData(nameof(Libraries))]
    public void TheLibraryReadsOurStreamedBodyIntoAnEqualGraph(string name)
    {
        var library = ReferenceLibrary.Named(name);
        Gen.Select(OrganizationGen.Organization, ChunkSize).Sample((organization, chunkSize) =>
            OrganizationAssert.Equal(library.ReadBack(organization), library.Deserialize(WriteStreamed(library.Codec, organization, chunkSize))));
    }

    [Theory]
    [MemberData(nameof(Libraries))]
    public void OurDecoderReadsTheLibrarysBodyIntoAnEqualGraphAtAnyChunkSize(string name)
    {
        var library = ReferenceLibrary.Named(name);
        Gen.Select(OrganizationGen.Organization, ChunkSize).Sample((organization, chunkSize) =>
            OrganizationAssert.Equal(
                library.ReadBack(library.WrittenAs(organization)),
                Decode(library.Codec, library.Serialize(organization), chunkSize, Limits)));
    }
}
