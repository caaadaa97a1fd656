namespace WebSerialization.Codecs.Tests.Support;

/// <summary>
/// What decoding a payload gives, to compare one delivery with another: the organization as the codec writes it back,
/// or the error with its limit and offset. Any other exception fails the test.
/// </summary>
internal readonly record struct DecodeOutcome(string Text, WireFormatError? Error)
{
    public static DecodeOutcome Of(IWireFormatCodec codec, byte[] payload, int chunkSize, DecodeLimits? limits = null)
    {
        try
        {
            return new(Convert.ToHexString(Encode(codec, Decode(codec, payload, chunkSize, limits))), null);
        }
        catch (WireFormatException e)
        {
            return new($"rejected: {e.Error} {e.Limit} at {e.Offset}", e.Error);
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            Assert.Fail($"Chunks of {chunkSize}: {e.GetType()}: {e.Message}\n{Convert.ToHexString(payload)}");
            throw;
        }
    }
}
