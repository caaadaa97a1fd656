using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc.Formatters;
using ProtoBuf;
using ProtoBuf.Meta;
using WebSerialization.Models.Baseline;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// A protobuf-net input formatter done the stock way: the whole request body is read into memory, then
/// <see cref="TypeModel.Deserialize(Type, ReadOnlyMemory{byte}, object?, object?)"/> decodes it (protobuf-net has no
/// incremental reader). An empty body is a valid message, as protobuf-net.AspNetCore treats it. A body protobuf-net
/// cannot read is an <see cref="InputFormatterException"/>, so MVC answers 400 instead of 500 (protobuf-net reports
/// bad lengths and depth as <see cref="InvalidOperationException"/>).
/// </summary>
public sealed class ProtobufNetInputFormatter : InputFormatter
{
    public ProtobufNetInputFormatter()
    {
        foreach (var mediaType in BaselineContract.ProtobufNet)
        {
            SupportedMediaTypes.Add(mediaType);
        }
    }

    /// <inheritdoc />
    protected override bool CanReadType(Type type) => RuntimeTypeModel.Default.CanSerializeContractType(type);

    /// <inheritdoc />
    public override Task<InputFormatterResult> ReadAsync(InputFormatterContext context) => ReadRequestBodyAsync(context);

    /// <inheritdoc />
    public override async Task<InputFormatterResult> ReadRequestBodyAsync(InputFormatterContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var httpContext = context.HttpContext;
        var request = httpContext.Request;

        // Sized by Content-Length when it is within the body limit (Kestrel refuses a longer body as it reads).
        var limit = httpContext.Features.Get<IHttpMaxRequestBodySizeFeature>()?.MaxRequestBodySize ?? long.MaxValue;
        var capacity = request.ContentLength is { } length && length <= Math.Min(limit, Array.MaxLength) ? (int)length : 0;
        using var body = new MemoryStream(capacity);
        await request.Body.CopyToAsync(body, httpContext.RequestAborted);
        try
        {
            var value = RuntimeTypeModel.Default.Deserialize(context.ModelType, body.GetBuffer().AsMemory(0, (int)body.Length));
            return await InputFormatterResult.SuccessAsync(value);
        }
        catch (Exception exception) when (exception is ProtoException or InvalidOperationException or EndOfStreamException or OverflowException)
        {
            throw new InputFormatterException($"The body is not a valid protobuf {context.ModelType.Name}: {exception.Message}", exception);
        }
    }
}
