namespace SqlWaitProbe.Experiments;

/// <summary>One variant as the experiment ran it.</summary>
/// <param name="Name">The variant's name.</param>
/// <param name="Bundle">Its bundle folder, or null when its capture never started.</param>
/// <param name="Status">How its capture ended.</param>
/// <param name="Requested">The settings asked for.</param>
/// <param name="Effective">The settings read back.</param>
public sealed record VariantResult(string Name, string? Bundle, string Status, IReadOnlyDictionary<string, string> Requested, IReadOnlyDictionary<string, string> Effective);
