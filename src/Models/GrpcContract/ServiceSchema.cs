using System.Reflection;
using ProtoBuf.Grpc;
using ProtoBuf.Grpc.Configuration;
using ProtoBuf.Meta;

namespace WebSerialization.Models.GrpcContract;

/// <summary>
/// Describes a protobuf-net.Grpc <c>[Service]</c> interface as a protobuf <c>service</c>, for protobuf-net's schema
/// generator (<see cref="SchemaGenerationOptions.Services"/>). Our own code because the package that does this for
/// code-first services, protobuf-net.Grpc.Reflection, is not served; names come from protobuf-net.Grpc's own
/// <see cref="ServiceBinder"/>, so they are the names the server binds.
/// </summary>
/// <remarks>
/// The method shapes understood are the ones <see cref="IOrganizationService"/> uses, each with an optional trailing
/// <c>CallContext</c> or <see cref="CancellationToken"/>: <c>Task/ValueTask&lt;TOut&gt; M(TIn)</c> (unary),
/// <c>IAsyncEnumerable&lt;TOut&gt; M(TIn)</c> (server streaming), <c>Task/ValueTask&lt;TOut&gt;
/// M(IAsyncEnumerable&lt;TIn&gt;)</c> (client streaming) and <c>IAsyncEnumerable&lt;TOut&gt;
/// M(IAsyncEnumerable&lt;TIn&gt;)</c> (duplex). Anything else is refused rather than guessed.
/// </remarks>
public static class ServiceSchema
{
    /// <summary>The protobuf package and <c>service</c> of <paramref name="contract"/>.</summary>
    /// <exception cref="ArgumentException">The type is not a service contract, or a method has a shape not listed above.</exception>
    public static (string Package, Service Service) Describe(Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        var binder = BinderConfiguration.Default.Binder;
        if (!contract.IsInterface || !binder.IsServiceContract(contract, out var fullName) || fullName is null)
        {
            throw new ArgumentException($"{contract.Name} is not a [Service] interface.", nameof(contract));
        }

        var dot = fullName.LastIndexOf('.');
        var service = new Service { Name = fullName[(dot + 1)..] };
        foreach (var method in contract.GetMethods(BindingFlags.Public | BindingFlags.Instance))
        {
            if (!binder.IsOperationContract(method, out var name) || name is null)
            {
                continue;
            }

            var (input, clientStreaming) = Input(method);
            var (output, serverStreaming) = Output(method);
            service.Methods.Add(new ServiceMethod
            {
                Name = name,
                InputType = input,
                OutputType = output,
                ClientStreaming = clientStreaming,
                ServerStreaming = serverStreaming,
            });
        }

        service.Methods.Sort((x, y) => string.CompareOrdinal(x.Name, y.Name));
        return (dot < 0 ? contract.Namespace ?? string.Empty : fullName[..dot], service);
    }

    private static (Type Type, bool Streaming) Input(MethodInfo method)
    {
        var parameters = method.GetParameters();
        var count = parameters.Length;
        if (count > 0 && IsCallContext(parameters[^1].ParameterType))
        {
            count--;
        }

        if (count != 1)
        {
            throw Unsupported(method, "it must take exactly one message (and optionally a CallContext or CancellationToken)");
        }

        var type = parameters[0].ParameterType;
        return AsyncEnumerableItem(type) is { } item ? (item, true) : (Message(type, method), false);
    }

    private static (Type Type, bool Streaming) Output(MethodInfo method)
    {
        var type = method.ReturnType;
        if (AsyncEnumerableItem(type) is { } item)
        {
            return (item, true);
        }

        if (type.IsGenericType && (type.GetGenericTypeDefinition() == typeof(Task<>) || type.GetGenericTypeDefinition() == typeof(ValueTask<>)))
        {
            return (Message(type.GetGenericArguments()[0], method), false);
        }

        throw Unsupported(method, "it must return Task<T>, ValueTask<T> or IAsyncEnumerable<T> of a message");
    }

    private static bool IsCallContext(Type type) =>
        type == typeof(CancellationToken) || type == typeof(CallContext);

    private static Type? AsyncEnumerableItem(Type type) =>
        type.IsGenericType && type.GetGenericTypeDefinition() == typeof(IAsyncEnumerable<>) ? type.GetGenericArguments()[0] : null;

    private static Type Message(Type type, MethodInfo method) =>
        type.IsClass && type != typeof(string) && !type.IsArray
            ? type
            : throw Unsupported(method, $"{type.Name} is not a message type");

    private static ArgumentException Unsupported(MethodInfo method, string reason) =>
        new($"{method.DeclaringType?.Name}.{method.Name} cannot be described as a protobuf method: {reason}.", nameof(method));
}
