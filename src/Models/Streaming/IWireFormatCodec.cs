namespace WebSerialization.Models.Streaming;

/// <summary>One format's encoder and decoder factory. Codecs are stateless and shared; encoders and decoders are per payload.</summary>
public interface IWireFormatCodec
{
    /// <summary>The format this codec reads and writes.</summary>
    WireFormat Format { get; }

    /// <summary>Creates an encoder for one payload.</summary>
    IOrganizationEncoder CreateEncoder();

    /// <summary>Creates a decoder for one payload, enforcing <paramref name="limits"/>.</summary>
    IOrganizationDecoder CreateDecoder(DecodeLimits limits);
}
