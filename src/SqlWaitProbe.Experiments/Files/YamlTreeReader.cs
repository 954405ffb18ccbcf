using SqlWaitProbe.Core.Errors;
using YamlDotNet.Core;
using YamlDotNet.Core.Events;

namespace SqlWaitProbe.Experiments.Files;

/// <summary>
/// Reads a YAML (or JSON) document into <see cref="YamlNode"/>s that keep their lines, with YamlDotNet's parser. A
/// duplicate key, a second document, a tag or a syntax error is bad input naming the file and line.
/// </summary>
public static class YamlTreeReader
{
    /// <summary>Deepest nesting accepted: an experiment file is a few levels deep, a hostile one could be thousands.</summary>
    public const int MaxDepth = 32;

    /// <summary>The document's root node; <paramref name="file"/> names the file in errors.</summary>
    public static YamlNode Read(string text, string file)
    {
        var parser = new Parser(new StringReader(text));
        var anchors = new Dictionary<string, YamlNode>(StringComparer.Ordinal);
        try
        {
            parser.Consume<StreamStart>();
            if (parser.Accept<StreamEnd>(out _))
            {
                throw new BadInputException("the experiment file is empty", file);
            }

            parser.Consume<DocumentStart>();
            var root = ReadNode(parser, anchors, file, 0);
            parser.Consume<DocumentEnd>();
            if (!parser.Accept<StreamEnd>(out _))
            {
                throw new BadInputException("holds more than one YAML document; an experiment is one", file, parser.Current?.Start.Line);
            }

            return root;
        }
        catch (YamlException e)
        {
            var message = e.InnerException?.Message ?? e.Message;
            var paren = message.IndexOf("): ", StringComparison.Ordinal);
            if (message.StartsWith("(Line:", StringComparison.Ordinal) && paren > 0)
            {
                message = message[(paren + 3)..];
            }

            throw new BadInputException("is not valid YAML: " + message.TrimEnd('.'), file, e.Start.Line);
        }
    }

    private static YamlNode ReadNode(IParser parser, Dictionary<string, YamlNode> anchors, string file, int depth)
    {
        var at = parser.Current ?? throw new BadInputException("ends too early", file);
        if (depth > MaxDepth)
        {
            throw new BadInputException($"is nested more than {MaxDepth} levels deep", file, at.Start.Line);
        }

        if (parser.TryConsume<AnchorAlias>(out var alias))
        {
            return anchors.TryGetValue(alias.Value.Value, out var target) ? target
                : throw new BadInputException($"the alias *{alias.Value.Value} names no anchor above it", file, alias.Start.Line);
        }

        YamlNode node;
        AnchorName anchor;
        if (parser.TryConsume<Scalar>(out var scalar))
        {
            RefuseTag(scalar.Tag, file, scalar.Start.Line);
            anchor = scalar.Anchor;
            node = new YamlScalar(scalar.Value, scalar.Style is ScalarStyle.Literal or ScalarStyle.Folded, scalar.Style == ScalarStyle.Plain, (int)scalar.Start.Line, (int)scalar.Start.Column);
        }
        else if (parser.TryConsume<SequenceStart>(out var sequence))
        {
            RefuseTag(sequence.Tag, file, sequence.Start.Line);
            anchor = sequence.Anchor;
            var items = new List<YamlNode>();
            while (!parser.TryConsume<SequenceEnd>(out _))
            {
                items.Add(ReadNode(parser, anchors, file, depth + 1));
            }

            node = new YamlSequence(items, (int)sequence.Start.Line, (int)sequence.Start.Column);
        }
        else if (parser.TryConsume<MappingStart>(out var mapping))
        {
            RefuseTag(mapping.Tag, file, mapping.Start.Line);
            anchor = mapping.Anchor;
            var entries = new List<KeyValuePair<YamlScalar, YamlNode>>();
            while (!parser.TryConsume<MappingEnd>(out _))
            {
                if (ReadNode(parser, anchors, file, depth + 1) is not YamlScalar key)
                {
                    throw new BadInputException("a key must be a plain name, not a list or map", file, parser.Current?.Start.Line);
                }

                if (entries.FirstOrDefault(e => e.Key.Value == key.Value).Key is { } first)
                {
                    throw new BadInputException($"the key '{key.Value}' appears twice in one map (first on line {first.Line})", file, key.Line);
                }

                entries.Add(new(key, ReadNode(parser, anchors, file, depth + 1)));
            }

            node = new YamlMap(entries, (int)mapping.Start.Line, (int)mapping.Start.Column);
        }
        else
        {
            throw new BadInputException("unexpected YAML here", file, at.Start.Line);
        }

        if (!anchor.IsEmpty)
        {
            anchors[anchor.Value] = node;
        }

        return node;
    }

    // A tag (!!binary, !custom) asks for a type the experiment file does not have; refusing it keeps values text.
    private static void RefuseTag(TagName tag, string file, long line)
    {
        if (!tag.IsEmpty && !tag.IsNonSpecific)
        {
            throw new BadInputException($"YAML tags such as {tag.Value} are not used in an experiment file; write the value as text", file, line);
        }
    }
}
