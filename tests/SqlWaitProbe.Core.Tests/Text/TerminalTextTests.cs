using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Tests.Text;

/// <summary>Text from a bundle printed on a terminal shows its escape sequences as text and stays on one line.</summary>
public sealed class TerminalTextTests
{
    [Theory]
    [InlineData("\u001b]52;c;ZWNobyBwd25lZA==\u0007", "?]52;c;ZWNobyBwd25lZA==?")]
    [InlineData("\u001b]0;title\u0007", "?]0;title?")]
    [InlineData("a\u001b[2Jb", "a?[2Jb")]
    [InlineData("one-byte CSI \u009b2J", "one-byte CSI ?2J")]
    [InlineData("two\nlines\r\tend", "two lines  end")]
    [InlineData("evil\u202Efdp.exe", "evil?fdp.exe")]
    [InlineData("DEL\u007f", "DEL?")]
    [InlineData("plain text, ünïcode ✓", "plain text, ünïcode ✓")]
    public void Control_characters_and_bidirectional_controls_are_shown_not_obeyed(string text, string shown)
    {
        Assert.Equal(shown, TerminalText.Line(text));
    }

    [Fact]
    public void Several_lines_keep_their_line_feeds()
    {
        Assert.Equal("a ?[2J\nb\n", TerminalText.Lines("a \u001b[2J\nb\n"));
    }
}
