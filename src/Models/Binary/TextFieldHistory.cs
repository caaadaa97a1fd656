namespace WebSerialization.Models.Binary;

/// <summary>
/// The UTF-8 bytes of one member field's previous value, which the next member's value of that field may share a
/// prefix with, and a second buffer where that next value is put together. Both the encoder and the decoder keep one
/// per text field. <see cref="Commit"/> swaps the two only once a whole member is done, so a member that turns out
/// to be incomplete leaves the previous value untouched.
/// </summary>
internal sealed class TextFieldHistory
{
    private const int InitialCapacity = 256;

    private byte[] _previous = new byte[InitialCapacity];
    private byte[] _current = new byte[InitialCapacity];

    /// <summary>The previous value's bytes; empty when it was null or there was no previous member.</summary>
    public ReadOnlySpan<byte> Previous => _previous.AsSpan(0, PreviousLength);

    public int PreviousLength { get; private set; }

    /// <summary>The buffer for the current value, at least <paramref name="capacity"/> bytes long. Its content is undefined.</summary>
    public byte[] Current(int capacity)
    {
        if (_current.Length < capacity)
        {
            _current = new byte[Math.Max(capacity, _current.Length * 2)];
        }

        return _current;
    }

    /// <summary>Makes the first <paramref name="length"/> bytes of the current buffer the previous value.</summary>
    public void Commit(int length)
    {
        (_previous, _current) = (_current, _previous);
        PreviousLength = length;
    }

    /// <summary>Forgets the previous value (the field was null).</summary>
    public void CommitNull() => PreviousLength = 0;
}
