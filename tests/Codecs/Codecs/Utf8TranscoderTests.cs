namespace WebSerialization.Codecs.Tests.Codecs;

/// <summary>
/// The encoders' transcoder writes what <see cref="Encoding.UTF8"/> writes (a lone surrogate as U+FFFD) and nothing past
/// it, at every length around its inline ASCII path (8 to 32 chars) and with a char that leaves that path at every position.
/// </summary>
public class Utf8TranscoderTests
{
    // As UTF-16 units in hex (xunit cannot tell lone surrogates apart as row names): none, ASCII's last char, the first
    // two-byte one, a three-byte one, a surrogate pair and lone surrogates.
    public static TheoryData<string> Intruders => ["", "007F", "0080", "00E9", "4E2D", "D83DDE00", "D800", "DC00"];

    [Theory]
    [MemberData(nameof(Intruders))]
    public void WritesWhatEncodingUtf8WritesAndNothingPastIt(string intruderUnits)
    {
        var intruder = string.Concat(intruderUnits.Chunk(4).Select(unit => (char)Convert.ToUInt16(new string(unit), 16)));
        for (var length = 0; length <= 40; length++)
        {
            var ascii = string.Concat(Enumerable.Range(0, length).Select(index => (char)('0' + (index % 75))));
            var texts = intruder.Length == 0
                ? [ascii]
                : Enumerable.Range(0, length + 1).Select(position => ascii[..position] + intruder + ascii[position..]).ToArray();
            foreach (var text in texts)
            {
                var expected = Encoding.UTF8.GetBytes(text);
                var destination = Enumerable.Repeat((byte)0xCC, (3 * text.Length) + 16).ToArray();

                var written = Utf8Transcoder.Write(text, destination.AsSpan(0, 3 * text.Length));

                Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(destination, 0, written));
                Assert.All(destination[written..], untouched => Assert.Equal(0xCC, untouched));
            }
        }
    }
}
