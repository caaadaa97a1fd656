using MessagePack;
using Microsoft.AspNetCore.Mvc.Formatters;
using WebSerialization.Models;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// Stands in for MessagePack.AspNetCoreMvcFormatter's output formatter (not served by this project's registry), doing
/// what it does: <see cref="MessagePackSerializer.Serialize(Type, System.Buffers.IBufferWriter{byte}, object?, MessagePackSerializerOptions?, CancellationToken)"/>
/// of the whole object into <c>Response.BodyWriter</c>, then one flush. Nothing reaches the socket until the whole
/// body is encoded, and the whole body sits in Kestrel's memory pool meanwhile: that is the cost the baseline measures.
/// It registers <c>application/x-msgpack</c> only, as the package does.
/// </summary>
public sealed class MessagePackOutputFormatter : OutputFormatter
{
    public MessagePackOutputFormatter() => SupportedMediaTypes.Add(WireMediaTypes.XMessagePack);

    /// <inheritdoc />
    public override Task WriteResponseBodyAsync(OutputFormatterWriteContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var writer = context.HttpContext.Response.BodyWriter;
        if (context.Object is null)
        {
            writer.GetSpan(1)[0] = MessagePackCode.Nil;
            writer.Advance(1);
            return writer.FlushAsync().AsTask();
        }

        var type = context.ObjectType is null || context.ObjectType == typeof(object) ? context.Object.GetType() : context.ObjectType;
        MessagePackSerializer.Serialize(type, writer, context.Object, options: null, context.HttpContext.RequestAborted);
        return writer.FlushAsync().AsTask();
    }
}
