using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>The few <c>pdh.dll</c> functions the counter collector calls.</summary>
[SupportedOSPlatform("windows")]
internal static class PdhNative
{
    /// <summary>Return the value as a double.</summary>
    public const uint PdhFmtDouble = 0x0000_0200;

    /// <summary>Do not cap percentages at 100 (process counters reach 100 × cores).</summary>
    public const uint PdhFmtNoCap100 = 0x0000_8000;

    /// <summary>The value is valid.</summary>
    public const uint PdhCstatusValidData = 0x0000_0000;

    /// <summary>The value is valid and new.</summary>
    public const uint PdhCstatusNewData = 0x0000_0001;

    /// <summary>A formatted counter value (<c>PDH_FMT_COUNTERVALUE</c> with the double member of its union).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PdhFmtCounterValue
    {
        /// <summary>Status of the value.</summary>
        public uint CStatus;

        /// <summary>The value as a double, the format the probe asks for (<c>PDH_FMT_DOUBLE</c>); meaningful only when <see cref="CStatus"/> says it is valid.</summary>
        public double DoubleValue;
    }

    /// <summary>The buffer given is too small (<c>PDH_MORE_DATA</c>); the size needed is returned.</summary>
    public const uint PdhMoreData = 0x8000_07D2;

    /// <summary>One instance's formatted value (<c>PDH_FMT_COUNTERVALUE_ITEM_W</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PdhFmtCounterValueItem
    {
        /// <summary>The instance name (points into the same buffer).</summary>
        public IntPtr Name;

        /// <summary>The instance's value with its own status: one instance can fail while the others read.</summary>
        public PdhFmtCounterValue Value;
    }

    /// <summary>A raw counter value (<c>PDH_RAW_COUNTER</c>; the FILETIME as its two halves, so the layout is C's).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PdhRawCounter
    {
        /// <summary>Status of the value.</summary>
        public uint CStatus;

        /// <summary>Low half of the collection time.</summary>
        public uint TimeStampLow;

        /// <summary>High half of the collection time.</summary>
        public uint TimeStampHigh;

        /// <summary>The counter's value.</summary>
        public long FirstValue;

        /// <summary>The second value a rate needs (its time base).</summary>
        public long SecondValue;

        /// <summary>The count of a multi-counter type.</summary>
        public uint MultiCount;
    }

    /// <summary>One instance's raw value (<c>PDH_RAW_COUNTER_ITEM_W</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PdhRawCounterItem
    {
        /// <summary>The instance name (points into the same buffer).</summary>
        public IntPtr Name;

        /// <summary>The value.</summary>
        public PdhRawCounter RawValue;
    }

    [DllImport("pdh.dll", CharSet = CharSet.Unicode, ExactSpelling = true)]
    public static extern uint PdhGetRawCounterArrayW(IntPtr counter, ref uint bufferSize, out uint itemCount, IntPtr itemBuffer);

    /// <summary>PDH's formula for the counter's type; <paramref name="rawValue2"/> is the older value.</summary>
    [DllImport("pdh.dll", ExactSpelling = true)]
    public static extern uint PdhCalculateCounterFromRawValue(IntPtr counter, uint format, ref PdhRawCounter rawValue1, ref PdhRawCounter rawValue2, out PdhFmtCounterValue fmtValue);

    [DllImport("pdh.dll", CharSet = CharSet.Unicode, ExactSpelling = true)]
    public static extern uint PdhGetFormattedCounterArrayW(IntPtr counter, uint format, ref uint bufferSize, out uint itemCount, IntPtr itemBuffer);

    [DllImport("pdh.dll", CharSet = CharSet.Unicode, ExactSpelling = true)]
    public static extern uint PdhOpenQueryW(string? dataSource, IntPtr userData, out IntPtr query);

    [DllImport("pdh.dll", CharSet = CharSet.Unicode, ExactSpelling = true)]
    public static extern uint PdhAddEnglishCounterW(IntPtr query, string counterPath, IntPtr userData, out IntPtr counter);

    [DllImport("pdh.dll", ExactSpelling = true)]
    public static extern uint PdhCollectQueryData(IntPtr query);

    [DllImport("pdh.dll", ExactSpelling = true)]
    public static extern uint PdhGetFormattedCounterValue(IntPtr counter, uint format, out uint type, out PdhFmtCounterValue value);

    [DllImport("pdh.dll", ExactSpelling = true)]
    public static extern uint PdhCloseQuery(IntPtr query);
}
