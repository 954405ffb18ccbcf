using System.Globalization;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>The rows of one DMV at one instant, keyed by the joined key columns; values in <see cref="DmvDefinition.Values"/> order.</summary>
public sealed class DmvSnapshot
{
    /// <summary>The separator between key parts in <see cref="Rows"/> keys.</summary>
    public const char KeySeparator = '\u001f';

    /// <summary>Creates a snapshot.</summary>
    public DmvSnapshot(DmvDefinition definition, DateTime utc, IReadOnlyDictionary<string, long[]> rows)
    {
        Definition = definition;
        Utc = utc;
        Rows = rows;
    }

    /// <summary>The DMV.</summary>
    public DmvDefinition Definition { get; }

    /// <summary>When the snapshot was taken (UTC).</summary>
    public DateTime Utc { get; }

    /// <summary>Values per row key.</summary>
    public IReadOnlyDictionary<string, long[]> Rows { get; }

    /// <summary>Builds a snapshot from a query result; rows with the same key are summed (e.g. clerks on several nodes).</summary>
    public static DmvSnapshot FromResult(DmvDefinition definition, DateTime utc, SqlResult result)
    {
        var keyIndex = definition.Keys.Select(result.IndexOf).ToArray();
        var valueIndex = definition.Values.Select(result.IndexOf).ToArray();
        var rows = new Dictionary<string, long[]>(StringComparer.Ordinal);
        foreach (var row in result.Rows)
        {
            var key = string.Join(KeySeparator, keyIndex.Select(i => i < 0 ? "" : Text(row[i])));
            if (!rows.TryGetValue(key, out var values))
            {
                values = new long[valueIndex.Length];
                rows[key] = values;
            }

            for (var v = 0; v < valueIndex.Length; v++)
            {
                values[v] += valueIndex[v] < 0 ? 0 : Number(row[valueIndex[v]]);
            }
        }

        return new DmvSnapshot(definition, utc, rows);
    }

    /// <summary>A value of a DMV column as a whole number (bit → 0/1, decimals truncated, null → 0).</summary>
    public static long Number(object? value) => value switch
    {
        null => 0,
        bool b => b ? 1 : 0,
        long l => l,
        int i => i,
        short s => s,
        byte b => b,
        decimal d => (long)d,
        double d => (long)d,
        float f => (long)f,
        string s => long.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out var l) ? l : 0,
        _ => Convert.ToInt64(value, CultureInfo.InvariantCulture),
    };

    /// <summary>A key value as invariant text, trimmed (nchar columns are space-padded).</summary>
    public static string Text(object? value) => value switch
    {
        null => "",
        string s => s.Trim(),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
