namespace WebSerialization.Models.Binary;

/// <summary>
/// The decoder's UTF-8 bytes of one member field's previous value, which the next member's value of that field may
/// share a prefix with, and a second buffer where that next value is put together. <see cref="Commit"/> makes the
/// second buffer the previous one only once a whole member is decoded, so a member that turns out to be incomplete
/// leaves the previous value untouched. The two buffers trade roles by a flag rather than by swapping references,
/// which would cost write barriers on every member.
/// </summary>
internal sealed class TextFieldHistory
{
    private const int InitialCapacity = 256;

    private byte[] _first = new byte[InitialCapacity];
    private byte[] _second = new byte[InitialCapacity];
    private bool _previousIsSecond;

    // The stem lengths of the two values, or -1 until someone needs one: a value written as "stem + number" (kind 3)
    // tells its stem for free, which saves reading its digits again when the next value is kind 3 too.
    private int _previousStem;
    private int _currentStem = -1;

    /// <summary>The previous value's bytes; empty when it was null or there was no previous member.</summary>
    public ReadOnlySpan<byte> Previous => new(_previousIsSecond ? _second : _first, 0, PreviousLength);

    public int PreviousLength { get; private set; }

    /// <summary>The length of "stem(previous)": the previous value without its trailing ASCII digits.</summary>
    public int PreviousStemLength
    {
        get
        {
            if (_previousStem < 0)
            {
                var previous = Previous;
                var stem = previous.Length;
                while (stem > 0 && (uint)(previous[stem - 1] - '0') <= 9)
                {
                    stem--;
                }

                _previousStem = stem;
            }

            return _previousStem;
        }
    }

    /// <summary>Records the current value's stem length when it is known, or -1.</summary>
    public void SetCurrentStem(int stem) => _currentStem = stem;

    /// <summary>The buffer for the current value, at least <paramref name="capacity"/> bytes long. Its content is undefined.</summary>
    public byte[] Current(int capacity)
    {
        var current = _previousIsSecond ? _first : _second;
        if (current.Length >= capacity)
        {
            return current;
        }

        current = new byte[Math.Max(capacity, current.Length * 2)];
        if (_previousIsSecond)
        {
            _first = current;
        }
        else
        {
            _second = current;
        }

        return current;
    }

    /// <summary>Makes the first <paramref name="length"/> bytes of the current buffer the previous value.</summary>
    public void Commit(int length)
    {
        _previousIsSecond = !_previousIsSecond;
        PreviousLength = length;
        _previousStem = _currentStem;
        _currentStem = -1;
    }

    /// <summary>Forgets the previous value (the field was null).</summary>
    public void CommitNull()
    {
        PreviousLength = 0;
        _previousStem = 0;
        _currentStem = -1;
    }
}
