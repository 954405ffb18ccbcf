using System.Globalization;
using System.Runtime.Versioning;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>A PDH query over a fixed list of English counter paths; read one sample at a time.</summary>
[SupportedOSPlatform("windows")]
public sealed class PdhQuery : IDisposable
{
    private readonly IntPtr[] _counters;
    private IntPtr _query;

    private readonly IntPtr[] _arrays;

    /// <summary>
    /// Opens the query and adds every counter; a counter PDH rejects reads as missing and is listed in <see cref="Rejected"/>.
    /// <paramref name="arrayPaths"/> are wildcard counters read instance by instance (<see cref="ReadArrays"/>).
    /// </summary>
    public PdhQuery(IReadOnlyList<string> counterPaths, IReadOnlyList<string>? arrayPaths = null)
    {
        ArgumentNullException.ThrowIfNull(counterPaths);
        var status = PdhNative.PdhOpenQueryW(null, IntPtr.Zero, out _query);
        if (status != 0)
        {
            throw new EnvironmentProblemException($"PDH could not open a counter query (status 0x{status.ToString("X8", CultureInfo.InvariantCulture)})", "Check that the Performance Counters service data is intact (lodctr /r).");
        }

        Counters = counterPaths;
        _counters = new IntPtr[counterPaths.Count];
        var rejected = new List<string>();
        for (var i = 0; i < counterPaths.Count; i++)
        {
            if (PdhNative.PdhAddEnglishCounterW(_query, counterPaths[i], IntPtr.Zero, out _counters[i]) != 0)
            {
                _counters[i] = IntPtr.Zero;
                rejected.Add(counterPaths[i]);
            }
        }

        ArrayCounters = arrayPaths ?? [];
        _arrays = new IntPtr[ArrayCounters.Count];
        for (var i = 0; i < ArrayCounters.Count; i++)
        {
            if (PdhNative.PdhAddEnglishCounterW(_query, ArrayCounters[i], IntPtr.Zero, out _arrays[i]) != 0)
            {
                _arrays[i] = IntPtr.Zero;
                rejected.Add(ArrayCounters[i]);
            }
        }

        Rejected = rejected;
    }

    /// <summary>The wildcard counters, in the order <see cref="ReadArrays"/> returns them.</summary>
    public IReadOnlyList<string> ArrayCounters { get; }

    /// <summary>Each wildcard counter's instances and raw values in the last sample (empty where PDH gave none).</summary>
    public IReadOnlyList<PdhRawValue>[] ReadRawArrays()
    {
        var result = new IReadOnlyList<PdhRawValue>[_arrays.Length];
        for (var i = 0; i < _arrays.Length; i++)
        {
            result[i] = _arrays[i] == IntPtr.Zero ? [] : ReadRawArray(_arrays[i]);
        }

        return result;
    }

    /// <summary>
    /// The value of wildcard counter <paramref name="array"/> from two raw values of one instance, by PDH's formula for its
    /// type (100 per busy core for a process's CPU); null when PDH finds none.
    /// </summary>
    public double? Calculate(int array, PdhRawValue current, PdhRawValue previous)
    {
        ArgumentNullException.ThrowIfNull(current);
        ArgumentNullException.ThrowIfNull(previous);
        if (_arrays[array] == IntPtr.Zero)
        {
            return null;
        }

        var now = Native(current);
        var before = Native(previous);
        var status = PdhNative.PdhCalculateCounterFromRawValue(_arrays[array], PdhNative.PdhFmtDouble | PdhNative.PdhFmtNoCap100, ref now, ref before, out var value);
        return status == 0 && value.CStatus is PdhNative.PdhCstatusValidData or PdhNative.PdhCstatusNewData ? value.DoubleValue : null;
    }

    private static PdhNative.PdhRawCounter Native(PdhRawValue value) => new()
    {
        CStatus = value.Status,
        TimeStampLow = unchecked((uint)value.TimeStamp),
        TimeStampHigh = unchecked((uint)(value.TimeStamp >> 32)),
        FirstValue = value.First,
        SecondValue = value.Second,
        MultiCount = value.MultiCount,
    };

    private static List<PdhRawValue> ReadRawArray(IntPtr counter)
    {
        var items = new List<PdhRawValue>();
        uint size = 0;
        var status = PdhNative.PdhGetRawCounterArrayW(counter, ref size, out _, IntPtr.Zero);
        if (status != PdhNative.PdhMoreData || size == 0)
        {
            return items;
        }

        var buffer = System.Runtime.InteropServices.Marshal.AllocHGlobal((int)size);
        try
        {
            if (PdhNative.PdhGetRawCounterArrayW(counter, ref size, out var count, buffer) != 0)
            {
                return items;
            }

            var stride = System.Runtime.InteropServices.Marshal.SizeOf<PdhNative.PdhRawCounterItem>();
            for (var i = 0; i < count; i++)
            {
                var item = System.Runtime.InteropServices.Marshal.PtrToStructure<PdhNative.PdhRawCounterItem>(buffer + (i * stride));
                var raw = item.RawValue;
                items.Add(new PdhRawValue(System.Runtime.InteropServices.Marshal.PtrToStringUni(item.Name) ?? "", raw.CStatus,
                    ((long)raw.TimeStampHigh << 32) | raw.TimeStampLow, raw.FirstValue, raw.SecondValue, raw.MultiCount));
            }
        }
        finally
        {
            System.Runtime.InteropServices.Marshal.FreeHGlobal(buffer);
        }

        return items;
    }

    /// <summary>The counter paths, in column order.</summary>
    public IReadOnlyList<string> Counters { get; }

    /// <summary>Counters PDH would not add.</summary>
    public IReadOnlyList<string> Rejected { get; }

    /// <summary>Takes a sample. Rate counters need two samples before they have a value.</summary>
    public void Collect()
    {
        ObjectDisposedException.ThrowIf(_query == IntPtr.Zero, this);
        var status = PdhNative.PdhCollectQueryData(_query);
        if (status != 0)
        {
            throw new EnvironmentProblemException($"PDH could not collect counter data (status 0x{status.ToString("X8", CultureInfo.InvariantCulture)})");
        }
    }

    /// <summary>The values of the last sample; null where a counter has no valid value (e.g. the process is not running).</summary>
    public double?[] Read()
    {
        var values = new double?[_counters.Length];
        for (var i = 0; i < _counters.Length; i++)
        {
            if (_counters[i] == IntPtr.Zero)
            {
                continue;
            }

            var status = PdhNative.PdhGetFormattedCounterValue(_counters[i], PdhNative.PdhFmtDouble | PdhNative.PdhFmtNoCap100, out _, out var value);
            if (status == 0 && value.CStatus is PdhNative.PdhCstatusValidData or PdhNative.PdhCstatusNewData)
            {
                values[i] = value.DoubleValue;
            }
        }

        return values;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (_query != IntPtr.Zero)
        {
            _ = PdhNative.PdhCloseQuery(_query);
            _query = IntPtr.Zero;
        }
    }
}
