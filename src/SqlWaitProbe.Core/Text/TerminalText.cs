namespace SqlWaitProbe.Core.Text;

/// <summary>
/// Text from a bundle or another input made safe to print on a terminal: a workload name or a configuration value
/// holding <c>ESC ] 52</c> (write the clipboard), <c>ESC ] 0</c> (set the window title) or <c>ESC [ 2 J</c> (clear the
/// screen) must show as text, not act. Every control character (C0 with ESC and BEL, DEL, C1 with the one-byte CSI)
/// and every bidirectional control that reorders what the eye sees becomes <c>?</c>; line breaks and tabs become
/// spaces, so one line stays one line. The one helper every printed line of such text goes through.
/// </summary>
public static class TerminalText
{
    /// <summary><paramref name="text"/> as one safe line (null as empty).</summary>
    public static string Line(string? text) => Clean(text, keepLineBreaks: false);

    /// <summary><paramref name="text"/> made safe, keeping its line feeds (log output of several lines).</summary>
    public static string Lines(string? text) => Clean(text, keepLineBreaks: true);

    /// <summary>True for a character that could act on a terminal or hide the order of text.</summary>
    public static bool IsUnsafe(char c) =>
        char.IsControl(c) || c is '\u2028' or '\u2029' or '\u061C' or '\u200E' or '\u200F' or (>= '\u202A' and <= '\u202E') or (>= '\u2066' and <= '\u2069');

    private static string Clean(string? text, bool keepLineBreaks)
    {
        if (string.IsNullOrEmpty(text))
        {
            return string.Empty;
        }

        var first = 0;
        while (first < text.Length && (!IsUnsafe(text[first]) || (keepLineBreaks && text[first] == '\n')))
        {
            first++;
        }

        if (first == text.Length)
        {
            return text;
        }

        return string.Create(text.Length, (text, keepLineBreaks), static (span, state) =>
        {
            for (var i = 0; i < span.Length; i++)
            {
                var c = state.text[i];
                span[i] = !IsUnsafe(c) || (state.keepLineBreaks && c == '\n') ? c
                    : c is '\n' or '\r' or '\t' or '\v' or '\f' or '\u2028' or '\u2029' ? ' '
                    : '?';
            }
        });
    }
}
