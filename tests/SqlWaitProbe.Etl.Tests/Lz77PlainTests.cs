using System.Text;
using SqlWaitProbe.Etl.Format;
using SqlWaitProbe.TestSupport.Etl;

namespace SqlWaitProbe.Etl.Tests;

/// <summary>The plain LZ77 decoder of [MS-XCA] 2.4, on the specification's examples, round trips and damage.</summary>
public class Lz77PlainTests
{
    [Fact]
    public void Decodes_the_specifications_literal_example()
    {
        // [MS-XCA] 3.1: the alphabet is 26 literals, their flags 0x0000003F (the bits after them set).
        var input = Convert.FromHexString("3f000000" + Convert.ToHexString(Encoding.ASCII.GetBytes("abcdefghijklmnopqrstuvwxyz")));
        Assert.Equal("abcdefghijklmnopqrstuvwxyz", Decode(input, 26));
    }

    [Fact]
    public void Decodes_the_specifications_match_example()
    {
        // [MS-XCA] 3.1: "abc" 100 times is three literals and one match 3 bytes back of 297 bytes (half byte 15, byte 255, word 294).
        var input = Convert.FromHexString("ffffff1f6162631700 0fff2601".Replace(" ", string.Empty, StringComparison.Ordinal));
        Assert.Equal(string.Concat(Enumerable.Repeat("abc", 100)), Decode(input, 300));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(40)]
    [InlineData(300)]
    [InlineData(70_000)]
    [InlineData(200_000)]
    public void Round_trips_runs_of_every_length_encoding(int run)
    {
        // A run after some text: lengths of 3 bits, a shared half byte, a byte, a word and a double word.
        var data = Encoding.ASCII.GetBytes("header text " + new string('x', run) + " middle " + new string('y', run / 2 + 11) + string.Concat(Enumerable.Range(0, 50).Select(i => i % 7)));
        var packed = Lz77PlainEncoder.Encode(data);
        var output = new byte[data.Length];
        Assert.Equal(data.Length, Lz77Plain.Decompress(packed, output, 0));
        Assert.Equal(data, output);
    }

    [Fact]
    public void A_match_before_the_start_is_damage_at_its_byte()
    {
        // One literal, then a match 8 bytes back.
        var input = Convert.FromHexString("ffffff7f" + "61" + "3800");
        var e = Assert.Throws<EtlFormatException>(() => Lz77Plain.Decompress(input, new byte[64], 1000));
        Assert.Equal("at byte 1005", e.Location);
        Assert.Contains("before the start", e.Problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Data_that_expands_past_its_buffer_is_damage()
    {
        var packed = Lz77PlainEncoder.Encode(Encoding.ASCII.GetBytes(new string('z', 5000)));
        var e = Assert.Throws<EtlFormatException>(() => Lz77Plain.Decompress(packed, new byte[4096], 72));
        Assert.Contains("expands past the 4096 bytes", e.Problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Data_that_ends_early_is_damage()
    {
        var packed = Lz77PlainEncoder.Encode(Encoding.ASCII.GetBytes("abcdefghijklmnopqrstuvwxyz0123456789"));
        var e = Assert.Throws<EtlFormatException>(() => Lz77Plain.Decompress(packed.AsSpan(0, 30), new byte[64], 0));
        Assert.Contains("ends", e.Problem, StringComparison.Ordinal);
    }

    private static string Decode(byte[] input, int size)
    {
        var output = new byte[size];
        var n = Lz77Plain.Decompress(input, output, 0);
        return Encoding.ASCII.GetString(output, 0, n);
    }
}
