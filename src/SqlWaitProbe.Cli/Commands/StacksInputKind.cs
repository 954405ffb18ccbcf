namespace SqlWaitProbe.Cli.Commands;

/// <summary>The formats a <c>probe stacks</c> input is recognised as, from its content.</summary>
internal enum StacksInputKind
{
    /// <summary><c>perf script</c> output, plain or gzip.</summary>
    PerfScript,
    /// <summary>Folded stacks, <c>frame;frame;... COUNT</c>.</summary>
    Folded,
    /// <summary>A speedscope JSON file, sampled or evented.</summary>
    Speedscope,
    /// <summary>A Windows event trace log: an .etl file, or PerfView's .etl.zip.</summary>
    Etl,
}
