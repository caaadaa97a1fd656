using Microsoft.AspNetCore.Mvc.Formatters;
using ProtoBuf.Meta;
using WebSerialization.Models.Baseline;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// A protobuf-net output formatter done the stock way, as protobuf-net.AspNetCore (not served by this project's registry) does it:
/// measure the whole graph (which gives the Content-Length), serialize all of it into <c>Response.BodyWriter</c>,
/// then flush once. The whole body is encoded before the first byte is sent.
/// </summary>
public sealed class ProtobufNetOutputFormatter : OutputFormatter
{
    public ProtobufNetOutputFormatter()
    {
        foreach (var mediaType in BaselineContract.ProtobufNet)
        {
            SupportedMediaTypes.Add(mediaType);
        }
    }

    /// <inheritdoc />
    protected override bool CanWriteType(Type? type) => type is not null && RuntimeTypeModel.Default.CanSerializeContractType(type);

    /// <inheritdoc />
    public override Task WriteResponseBodyAsync(OutputFormatterWriteContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var response = context.HttpContext.Response;
        using (var measured = RuntimeTypeModel.Default.Measure<object>(context.Object!))
        {
            response.ContentLength = measured.Length;
            measured.Serialize(response.BodyWriter);
        }

        return response.BodyWriter.FlushAsync(context.HttpContext.RequestAborted).AsTask();
    }
}
