using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Options;

/// <summary>
/// <c>--scale</c>, the data size of a built-in workload as a fraction of the size its field report used (1 = that size),
/// the same for every engine: a finite number above 0 and at most <see cref="Maximum"/>.
/// </summary>
public static class WorkloadScale
{
    /// <summary>
    /// The largest scale: 100 times the reported sizes is already hundreds of millions of rows (tens of GB of setup); a
    /// larger one is a typing slip, and a far larger one would not even fit the row counts in 64 bits.
    /// </summary>
    public const double Maximum = 100;

    /// <summary>Returns <paramref name="scale"/>, or throws <see cref="BadInputException"/> when it is out of bounds.</summary>
    public static double Check(double scale) =>
        double.IsFinite(scale) && scale > 0 && scale <= Maximum
            ? scale
            : throw new BadInputException(
                $"--scale {scale.ToString(CultureInfo.InvariantCulture)} is out of bounds: give a number above 0 and at most {Maximum.ToString(CultureInfo.InvariantCulture)} (1 = the workload's full size)");
}
