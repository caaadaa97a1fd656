using System.IO.Pipelines;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;

namespace WebSerialization.IntegrationTests;

/// <summary>Decodes bodies with the project's codecs and compares organizations field by field.</summary>
public static class OrganizationAssert
{
    /// <summary>Decodes a body as it streams in, the way the server decodes uploads.</summary>
    public static async Task<(Organization Organization, long Bytes)> DecodeAsync(Stream body, WireFormat format)
    {
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

    /// <summary>Asserts that <paramref name="actual"/> is <paramref name="expected"/> with its first <paramref name="memberCount"/> members.</summary>
    public static void Equal(Organization expected, int memberCount, Organization actual)
    {
        Assert.Equal(expected.Id, actual.Id);
        Assert.Equal(expected.Tags, actual.Tags);
        var members = actual.Members ?? [];
        Assert.Equal(memberCount, members.Count);
        for (var i = 0; i < memberCount; i++)
        {
            var e = expected.Members![i];
            var a = members[i];
            if (e.Id != a.Id || e.Name != a.Name || e.Description != a.Description || e.Address != a.Address
                || BitConverter.DoubleToInt64Bits(e.Value) != BitConverter.DoubleToInt64Bits(a.Value) || e.UpdateTime != a.UpdateTime)
            {
                Assert.Fail($"Member {i} differs: expected ({e.Id}, {e.Name}, {e.Description}, {e.Address}, {e.Value}, {e.UpdateTime}), got ({a.Id}, {a.Name}, {a.Description}, {a.Address}, {a.Value}, {a.UpdateTime}).");
            }
        }
    }
}
