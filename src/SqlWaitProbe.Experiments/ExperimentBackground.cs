namespace SqlWaitProbe.Experiments;

/// <summary>Competing load that runs beside the measured work: sessions, each running <see cref="Sql"/> again and again (the seeds' busy scheduler).</summary>
/// <param name="Sessions">How many background sessions.</param>
/// <param name="Sql">What each runs in a loop.</param>
public sealed record ExperimentBackground(int Sessions, ExperimentScript Sql);
