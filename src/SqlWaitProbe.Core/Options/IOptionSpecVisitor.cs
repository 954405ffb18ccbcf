namespace SqlWaitProbe.Core.Options;

/// <summary>Works on an <see cref="IOptionSpec"/> with its value type known (the command line builds its parser this way).</summary>
/// <typeparam name="TResult">What the visitor returns.</typeparam>
public interface IOptionSpecVisitor<out TResult>
{
    /// <summary>Called with the typed option.</summary>
    TResult Visit<T>(OptionSpec<T> option);
}
