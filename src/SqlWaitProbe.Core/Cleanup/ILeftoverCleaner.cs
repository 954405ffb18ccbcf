namespace SqlWaitProbe.Core.Cleanup;

/// <summary>Finds and removes one kind of leftover of killed captures; <c>probe cleanup</c> runs every cleaner.</summary>
public interface ILeftoverCleaner
{
    /// <summary>Short name shown to the user, e.g. <c>embedded-postgres</c>.</summary>
    string Name { get; }

    /// <summary>Lists leftovers whose owning probe process is gone; never lists anything a running capture still uses.</summary>
    Task<IReadOnlyList<Leftover>> FindAsync(CancellationToken cancellationToken);

    /// <summary>Removes one leftover found by <see cref="FindAsync"/>; returns what was done, in one line.</summary>
    Task<string> RemoveAsync(Leftover leftover, CancellationToken cancellationToken);
}
