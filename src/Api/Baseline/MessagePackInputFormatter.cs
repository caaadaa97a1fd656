using System.Runtime.ExceptionServices;
using MessagePack;
using Microsoft.AspNetCore.Mvc.Formatters;
using WebSerialization.Models;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// Stands in for MessagePack.AspNetCoreMvcFormatter's input formatter (not served by this project's registry), doing
/// what it does: <see cref="MessagePackSerializer.DeserializeAsync(Type, Stream, MessagePackSerializerOptions?, CancellationToken)"/>
/// of the request body, which reads the whole body into memory before it decodes anything, with
/// <see cref="MessagePackSecurity.UntrustedData"/> (the package's default). One addition: a body MessagePack cannot
/// read is an <see cref="InputFormatterException"/>, so MVC answers 400 instead of 500, and a read that failed is
/// thrown as itself rather than wrapped, so that a body over the size limit stays a 413.
/// </summary>
public sealed class MessagePackInputFormatter : InputFormatter
{
    private static readonly MessagePackSerializerOptions Options =
        MessagePackSerializerOptions.Standard.WithSecurity(MessagePackSecurity.UntrustedData);

    public MessagePackInputFormatter() => SupportedMediaTypes.Add(WireMediaTypes.XMessagePack);

    /// <inheritdoc />
    public override async Task<InputFormatterResult> ReadRequestBodyAsync(InputFormatterContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var httpContext = context.HttpContext;
        try
        {
            var value = await MessagePackSerializer.DeserializeAsync(context.ModelType, httpContext.Request.Body, Options, httpContext.RequestAborted);
            return await InputFormatterResult.SuccessAsync(value);
        }
        catch (MessagePackSerializationException exception)
            when (exception.InnerException is (IOException and not EndOfStreamException) or OperationCanceledException)
        {
            // The body could not be read (Kestrel's 413 for a body over the limit, or a client gone: a reset, or
            // RequestAborted cancelling the read first), not a bad body: MessagePack-CSharp wraps whatever the read
            // threw. BaselineUploadFilter answers it as the streamed upload does.
            ExceptionDispatchInfo.Throw(exception.InnerException);
            throw;
        }
        catch (Exception exception) when (exception is MessagePackSerializationException or EndOfStreamException)
        {
            throw new InputFormatterException($"The body is not a valid MessagePack {context.ModelType.Name}: {exception.Message}", exception);
        }
    }
}
