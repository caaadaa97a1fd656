using System.Reflection;
using WebSerialization.Models;
using Xunit.Sdk;

namespace WebSerialization.Tests.Support;

/// <summary>
/// <see cref="InlineDataAttribute"/> for theories that take a <see cref="WireFormat"/>: a format is named by its key
/// (<c>"json"</c>, <c>"msgpack"</c>, ...) where the parameter is a <see cref="WireFormat"/>, since an attribute can hold
/// only constants. An unknown key fails the theory instead of dropping it.
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
public sealed class InlineFormatDataAttribute(params object?[] data) : DataAttribute
{
    /// <inheritdoc />
    public override IEnumerable<object?[]> GetData(MethodInfo testMethod)
    {
        ArgumentNullException.ThrowIfNull(testMethod);
        var parameters = testMethod.GetParameters();
        var row = (object?[])data.Clone();
        for (var i = 0; i < row.Length && i < parameters.Length; i++)
        {
            if (parameters[i].ParameterType == typeof(WireFormat) && row[i] is string key)
            {
                row[i] = WireFormat.FromKey(key) ?? throw new ArgumentException($"'{key}' is not a format key; the keys are {string.Join(", ", WireFormat.All)}.");
            }
        }

        yield return row;
    }
}
