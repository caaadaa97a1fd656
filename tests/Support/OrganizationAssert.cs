using System.IO.Pipelines;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;

namespace WebSerialization.Tests.Support;

/// <summary>Field-by-field comparison of organizations that names the first difference, and decoding of bodies to compare.</summary>
public static class OrganizationAssert
{
    /// <summary>
    /// Asserts that every field is equal: null and empty differ, doubles compare by their bits (so -0.0 is not 0.0),
    /// except that any NaN equals any NaN (JSON cannot carry a NaN's payload).
    /// </summary>
    public static void Equal(Organization expected, Organization actual)
    {
        ArgumentNullException.ThrowIfNull(expected);
        ArgumentNullException.ThrowIfNull(actual);
        Assert.Equal(expected.Id, actual.Id);
        Assert.Equal(expected.Tags, actual.Tags);
        if (expected.Members is null || actual.Members is null)
        {
            Assert.Equal(expected.Members is null, actual.Members is null);
            return;
        }

        MembersEqual(expected.Members, expected.Members.Count, actual.Members);
    }

    /// <summary>
    /// Asserts that <paramref name="actual"/> is <paramref name="expected"/> with its first <paramref name="memberCount"/>
    /// members, as a server sends it for <c>?count=</c>: fields compare as <see cref="Equal(Organization, Organization)"/>
    /// compares them, except that an absent member list counts as an empty one.
    /// </summary>
    public static void Equal(Organization expected, int memberCount, Organization actual)
    {
        ArgumentNullException.ThrowIfNull(expected);
        ArgumentNullException.ThrowIfNull(actual);
        Assert.Equal(expected.Id, actual.Id);
        Assert.Equal(expected.Tags, actual.Tags);
        MembersEqual(expected.Members ?? [], memberCount, actual.Members ?? []);
    }

    /// <summary>Decodes a body as it streams in, the way the server decodes uploads.</summary>
    public static async Task<(Organization Organization, long Bytes)> DecodeAsync(Stream body, WireFormat format)
    {
        ArgumentNullException.ThrowIfNull(format);
        var reader = PipeReader.Create(body);
        try
        {
            return await OrganizationStreamReader.ReadAsync(reader, format.Codec.CreateDecoder(DecodeLimits.Default), CancellationToken.None);
        }
        finally
        {
            await reader.CompleteAsync();
        }
    }

    /// <summary>
    /// <paramref name="organization"/> as a proto3 library sees it: a string or list holding its default value (empty)
    /// is the same as an absent one, which our decoder reads as null.
    /// </summary>
    public static Organization Proto3View(Organization organization)
    {
        var lists = CodecHarness.AsDecoded(WireFormat.Protobuf, organization);
        return new()
        {
            Id = lists.Id,
            Tags = lists.Tags,
            Members = lists.Members?.Select(m => new Member
            {
                Id = m.Id,
                Name = EmptyAsNull(m.Name),
                Description = EmptyAsNull(m.Description),
                Address = EmptyAsNull(m.Address),
                Value = m.Value,
                UpdateTime = m.UpdateTime,
            }).ToList(),
        };
    }

    // The first count members of expected against all of actual, which must have count members.
    private static void MembersEqual(List<Member> expected, int count, List<Member> actual)
    {
        Assert.Equal(count, actual.Count);
        for (var index = 0; index < count; index++)
        {
            var e = expected[index];
            var a = actual[index];

            // Only a difference goes through Assert, which keeps a million members fast.
            if (e.Id != a.Id || e.Name != a.Name || e.Description != a.Description || e.Address != a.Address
                || !SameDouble(e.Value, a.Value) || e.UpdateTime != a.UpdateTime)
            {
                Assert.Fail($"Member {index} differs: expected {Describe(e)}, actual {Describe(a)}.");
            }
        }
    }

    // True when both are NaN or both have the same bits.
    private static bool SameDouble(double expected, double actual) =>
        (double.IsNaN(expected) && double.IsNaN(actual)) || BitConverter.DoubleToInt64Bits(expected) == BitConverter.DoubleToInt64Bits(actual);

    private static string? EmptyAsNull(string? value) => string.IsNullOrEmpty(value) ? null : value;

    private static string Describe(Member m) =>
        $"{{Id={m.Id}, Name={Quote(m.Name)}, Description={Quote(m.Description)}, Address={Quote(m.Address)}, Value={m.Value:R} (0x{BitConverter.DoubleToInt64Bits(m.Value):x16}), UpdateTime={m.UpdateTime}}}";

    private static string Quote(string? value) => value is null ? "null" : $"\"{value}\"";
}
