namespace WebSerialization.Codecs.Tests;

public class WireFormatTests
{
    [Theory]
    [InlineData("json", typeof(JsonCodec))]
    [InlineData("msgpack", typeof(MessagePackCodec))]
    [InlineData("protobuf", typeof(ProtobufCodec))]
    [InlineData("binary", typeof(BinaryCodec))]
    public void EachKeyNamesTheFormatOfItsOwnCodec(string key, Type codec)
    {
        var format = WireFormat.FromKey(key)!;

        Assert.IsType(codec, format.Codec);
        Assert.Same(format, WireFormat.All.Single(candidate => candidate.Codec.GetType() == codec));
    }
}
