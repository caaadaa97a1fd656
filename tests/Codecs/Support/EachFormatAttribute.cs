using System.Reflection;
using Xunit.Sdk;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>
/// Theory rows over the formats, by key (see <see cref="CodecTheoryRows"/>): <c>[EachFormat]</c> gives one row per format,
/// <c>[EachFormat(1, 4096)]</c> one per format and value, the format first, in <see cref="WireFormat.All"/>'s order.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
internal sealed class EachFormatAttribute(params object[] values) : DataAttribute
{
    /// <inheritdoc />
    public override IEnumerable<object?[]> GetData(MethodInfo testMethod) => values.Length == 0
        ? FormatKeys.Select(key => new object?[] { key })
        : FormatKeys.SelectMany(key => values.Select(value => new object?[] { key, value }));
}
