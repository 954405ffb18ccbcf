namespace SqlWaitProbe.Cli.Commands;

/// <summary>What of an input a <c>probe stacks</c> verb reads, and how it names frames.</summary>
/// <param name="Process">Only this process (name, or for an .etl a process id too); null for all.</param>
/// <param name="Addresses">Name frames without a symbol by address (<c>module!0xRVA</c>).</param>
/// <param name="ProcessIds">Put the process id in the process name of .etl stacks (<c>name-PID</c>).</param>
internal sealed record StacksSelection(string? Process = null, bool Addresses = false, bool ProcessIds = false)
{
    /// <summary>Everything, named as the input names it.</summary>
    public static StacksSelection All { get; } = new();
}
