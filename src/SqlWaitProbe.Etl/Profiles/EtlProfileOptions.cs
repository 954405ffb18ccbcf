using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Profiles;

/// <summary>How <see cref="EtlProfileBuilder"/> turns a trace's samples into named stacks.</summary>
public sealed record EtlProfileOptions
{
    /// <summary>
    /// Name every frame without a function name by its address, <c>module!0xRVA</c> (<c>[jit]!0xADDRESS</c> outside any
    /// image), one frame per address. Otherwise such frames are named by their module alone and a run of frames in one
    /// module is one frame.
    /// </summary>
    public bool Addresses { get; init; }

    /// <summary>Only this process: its name (without <c>.exe</c>, any case) or its id; null for every process.</summary>
    public string? Process { get; init; }

    /// <summary>Put the process id in the process name (<c>sqlservr-1234</c>), so processes of one name stay apart.</summary>
    public bool ProcessIds { get; init; }

    /// <summary>Names the function at an image-relative address (symbols, on a machine that has them); null for none.</summary>
    public Func<EtlImage, ulong, string?>? FunctionName { get; init; }
}
