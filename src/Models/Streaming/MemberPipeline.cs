using System.Collections.Concurrent;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Models.Streaming;

/// <summary>
/// A sink that hands members from the thread that decodes them to a thread of its own that passes them on to
/// <c>next</c>, in order: each view is copied into a <see cref="MemberBatch"/>, and at most
/// <see cref="MaxPendingBatches"/> full batches wait at once (the decoder blocks until one is taken), so memory stays a
/// few batches however many members come. With a second core a conversion decodes and encodes at the same time.
/// </summary>
/// <remarks>
/// The writing thread is its own (not the thread pool's), so a decoder blocked on a full queue cannot starve it.
/// <see cref="Complete"/> reaches <c>next</c> only from <see cref="FinishAsync"/>, after its last member.
/// </remarks>
internal sealed class MemberPipeline : IOrganizationSink, IDisposable
{
    /// <summary>Bytes per batch: a few thousand seed-shaped members, so that handing one over costs little.</summary>
    internal const int BatchBytes = 256 * 1024;

    /// <summary>Full batches that may wait for the writing thread.</summary>
    internal const int MaxPendingBatches = 4;

    private readonly IOrganizationSink _next;
    private readonly CancellationToken _cancellationToken;
    private readonly BlockingCollection<MemberBatch> _full = new(new ConcurrentQueue<MemberBatch>(), MaxPendingBatches);
    private readonly ConcurrentQueue<MemberBatch> _empty = new();
    private readonly CancellationTokenSource _stop;
    private readonly Task _writing;
    private MemberBatch? _current;
    private OrganizationHeader? _final;
    private volatile bool _abandoned;

    /// <summary>Starts the writing thread; <paramref name="cancellationToken"/> also ends a wait for room.</summary>
    public MemberPipeline(IOrganizationSink next, CancellationToken cancellationToken)
    {
        _next = next;
        _cancellationToken = cancellationToken;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _writing = Task.Factory.StartNew(Write, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    /// <inheritdoc />
    public void BeginMembers(OrganizationHeader header) => _next.BeginMembers(header);

    /// <inheritdoc />
    public void AddMember(in MemberView member)
    {
        var batch = _current ??= Rent();
        if (!batch.TryAdd(member))
        {
            Hand(batch);
            batch = _current = Rent();
            batch.TryAdd(member);
        }
    }

    /// <inheritdoc />
    public void Complete(OrganizationHeader header) => _final = header;

    /// <summary>Hands on the last batch, waits until the writing thread has passed every member on, then completes <c>next</c>.</summary>
    /// <exception cref="OperationCanceledException">The token was cancelled.</exception>
    public async Task FinishAsync()
    {
        if (_current is { IsEmpty: false } last)
        {
            Hand(last);
        }

        _full.CompleteAdding();
        await _writing;
        if (_final is { } header)
        {
            _next.Complete(header);
        }
    }

    /// <summary>Stops the writing thread (members still queued are dropped) and returns the batches' buffers.</summary>
    public void Dispose()
    {
        _abandoned = true;
        if (!_full.IsAddingCompleted)
        {
            _full.CompleteAdding();
        }

        try
        {
            _writing.Wait();
        }
        catch (AggregateException)
        {
            // Its error went to the decoding side already, or that side failed first and this one is moot.
        }

        _current?.Dispose();
        while (_full.TryTake(out var batch) || _empty.TryDequeue(out batch))
        {
            batch.Dispose();
        }

        _full.Dispose();
        _stop.Dispose();
    }

    private MemberBatch Rent() => _empty.TryDequeue(out var batch) ? batch : new MemberBatch(BatchBytes);

    // Blocks while MaxPendingBatches wait; a writing thread that failed cancels the wait, and its error is thrown here.
    private void Hand(MemberBatch batch)
    {
        try
        {
            _full.Add(batch, _stop.Token);
        }
        catch (OperationCanceledException) when (!_cancellationToken.IsCancellationRequested)
        {
            _writing.GetAwaiter().GetResult();
            throw;
        }

        _current = null;
    }

    private void Write()
    {
        try
        {
            foreach (var batch in _full.GetConsumingEnumerable())
            {
                var offset = 0;
                while (!_abandoned && batch.TryRead(ref offset, out var member))
                {
                    _next.AddMember(member);
                }

                batch.Clear();
                _empty.Enqueue(batch);
            }
        }
        catch
        {
            _stop.Cancel();
            throw;
        }
    }
}
