namespace SqlWaitProbe.Cli.Tests.Fuzz;

/// <summary>Deterministic mutations of a seed input: bit flips, byte edits, truncation, line shuffles, splices.</summary>
public sealed class Mutator(int seed)
{
    private static readonly byte[][] Tokens =
    [
        "\n"u8.ToArray(), " "u8.ToArray(), ";"u8.ToArray(), ":"u8.ToArray(), "\0"u8.ToArray(), "-1"u8.ToArray(),
        "99999999999999999999"u8.ToArray(), "["u8.ToArray(), "]"u8.ToArray(), "("u8.ToArray(), ")"u8.ToArray(),
        "\""u8.ToArray(), ","u8.ToArray(), "<"u8.ToArray(), ">"u8.ToArray(), "{"u8.ToArray(), "}"u8.ToArray(),
        "\t"u8.ToArray(), "\r\n"u8.ToArray(), "NaN"u8.ToArray(), "\xff\xfe"u8.ToArray(),
    ];

    private readonly Random _random = new(seed);

    /// <summary>One mutated copy of <paramref name="input"/>, with 1–4 stacked mutations.</summary>
    public byte[] Mutate(byte[] input)
    {
        var data = new List<byte>(input);
        var rounds = 1 + _random.Next(4);
        for (var r = 0; r < rounds; r++)
        {
            MutateOnce(data);
        }

        return data.ToArray();
    }

    private void MutateOnce(List<byte> data)
    {
        var at = data.Count == 0 ? 0 : _random.Next(data.Count);
        switch (_random.Next(9))
        {
            case 0 when data.Count > 0:
                data[at] ^= (byte)(1 << _random.Next(8));
                break;
            case 1 when data.Count > 0:
                data[at] = (byte)_random.Next(256);
                break;
            case 2 when data.Count > 0:
                data.RemoveRange(at, Math.Min(data.Count - at, 1 + _random.Next(16)));
                break;
            case 3:
                data.InsertRange(at, Tokens[_random.Next(Tokens.Length)]);
                break;
            case 4 when data.Count > 0:
                data.RemoveRange(at, data.Count - at);
                break;
            case 5 when data.Count > 1:
                var len = Math.Min(data.Count - at, 1 + _random.Next(64));
                data.InsertRange(_random.Next(data.Count), data.GetRange(at, len));
                break;
            case 6:
                var bytes = new byte[1 + _random.Next(32)];
                _random.NextBytes(bytes);
                data.InsertRange(at, bytes);
                break;
            case 7 when data.Count > 0:
                var digitAt = data.FindIndex(at, b => b is >= (byte)'0' and <= (byte)'9');
                if (digitAt >= 0)
                {
                    data.InsertRange(digitAt, "9999999999"u8.ToArray());
                }

                break;
            default:
                data.InsertRange(at, "\n\n"u8.ToArray());
                break;
        }
    }
}
