namespace WebSerialization.Models.Codecs;

/// <summary>One format's encoder and decoder factory. Codecs are stateless and shared; encoders and decoders are per payload.</summary>
public interface IWireFormatCodec
{
    /// <summary>
    /// Whether the payload states its member count before the members (MessagePack's array header, the binary format's
    /// count), so that an encoder's header needs the count and nothing follows the last member.
    /// </summary>
    bool MemberCountComesFirst { get; }

    /// <summary>Creates an encoder for one payload.</summary>
    IOrganizationEncoder CreateEncoder();

    /// <summary>Creates a decoder for one payload, enforcing <paramref name="limits"/>, that builds the whole organization (<see cref="IOrganizationDecoder.GetResult"/>).</summary>
    IOrganizationDecoder CreateDecoder(DecodeLimits limits);

    /// <summary>Creates a decoder for one payload, enforcing <paramref name="limits"/>, that hands each member to <paramref name="sink"/> and keeps none.</summary>
    IOrganizationDecoder CreateDecoder(DecodeLimits limits, IOrganizationSink sink);
}
