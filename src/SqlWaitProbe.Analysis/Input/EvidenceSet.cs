using System.Collections.Immutable;

namespace SqlWaitProbe.Analysis.Input;

/// <summary>
/// What collector modules read from a phase beyond the built-in files, one value per module type: a module keeps its
/// own analysis model here (<see cref="With{T}"/>) and finds it again when it builds its report section.
/// </summary>
public sealed class EvidenceSet
{
    private readonly ImmutableDictionary<Type, object> _items;

    private EvidenceSet(ImmutableDictionary<Type, object> items) => _items = items;

    /// <summary>Nothing read.</summary>
    public static EvidenceSet Empty { get; } = new(ImmutableDictionary<Type, object>.Empty);

    /// <summary>The value of type <typeparamref name="T"/>, or null when the phase has none.</summary>
    public T? Get<T>()
        where T : class => _items.TryGetValue(typeof(T), out var value) ? (T)value : null;

    /// <summary>This set with <paramref name="value"/> as the phase's <typeparamref name="T"/>.</summary>
    public EvidenceSet With<T>(T value)
        where T : class => new(_items.SetItem(typeof(T), value));
}
