using System.Globalization;
using System.Text;
using System.Xml;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Tags;

/// <summary>Reads and writes WPA <c>.stacktags</c> XML and writes PerfView GroupPats text.</summary>
public static class StackTagsFile
{
    /// <summary>
    /// Imports a <c>.stacktags</c> file: nested <c>Tag</c> elements (names joined with <c>\</c>, the unnamed root dropped)
    /// holding <c>Entrypoint Module=… Method=…</c> entries (<c>Function=</c> accepted for <c>Method=</c>); entries of an
    /// unnamed tag match as <see cref="StackTagSet.Other"/>. Nested tags are flattened: a child's rules match on their own. Throws
    /// <see cref="BadInputException"/> with file and line when the XML is malformed or an entry lacks a module.
    /// </summary>
    public static StackTagSet Import(string path)
    {
        if (!File.Exists(path))
        {
            throw new BadInputException("no such .stacktags file", path);
        }

        using var stream = File.OpenRead(path);
        return Import(stream, path);
    }

    /// <summary>Imports from a stream; <paramref name="name"/> is used in errors and as the set name.</summary>
    public static StackTagSet Import(Stream stream, string name)
    {
        var rules = new List<StackTagRule>();
        var stack = new List<(string Name, int Priority)>();
        var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null, IgnoreComments = true };
        using var reader = XmlReader.Create(stream, settings);
        var info = (IXmlLineInfo)reader;
        var sawTag = false;
        try
        {
            while (reader.Read())
            {
                if (reader.NodeType == XmlNodeType.Element && reader.Name == "Tag")
                {
                    sawTag = true;
                    var tagName = reader.GetAttribute("Name") ?? "";
                    var priorityText = reader.GetAttribute("Priority");
                    var priority = stack.Count > 0 ? stack[^1].Priority : 0;
                    if (priorityText is not null && !int.TryParse(priorityText, NumberStyles.Integer, CultureInfo.InvariantCulture, out priority))
                    {
                        throw new BadInputException($"Tag '{tagName}' has Priority '{priorityText}', which is not a whole number", name, info.LineNumber);
                    }

                    if (reader.IsEmptyElement)
                    {
                        continue;
                    }

                    stack.Add((tagName, priority));
                }
                else if (reader.NodeType == XmlNodeType.EndElement && reader.Name == "Tag")
                {
                    stack.RemoveAt(stack.Count - 1);
                }
                else if (reader.NodeType == XmlNodeType.Element && reader.Name == "Entrypoint")
                {
                    var module = reader.GetAttribute("Module");
                    var method = reader.GetAttribute("Method") ?? reader.GetAttribute("Function") ?? "*";
                    if (string.IsNullOrWhiteSpace(module))
                    {
                        throw new BadInputException("Entrypoint has no Module attribute", name, info.LineNumber);
                    }

                    if (stack.Count == 0)
                    {
                        throw new BadInputException("Entrypoint is outside any Tag", name, info.LineNumber);
                    }

                    // An unnamed tag is how WPA files exclude stacks: its matches end the walk as untagged.
                    var tagPath = stack[^1].Name.Length == 0 ? StackTagSet.Other : string.Join('\\', stack.Select(s => s.Name).Where(n => n.Length > 0));

                    rules.Add(new StackTagRule(tagPath, module, method, stack[^1].Priority));
                }
            }
        }
        catch (XmlException e)
        {
            throw new BadInputException($"not valid stack tags XML: {e.Message.Split(" Line ")[0]}", name, e.LineNumber);
        }

        if (!sawTag)
        {
            throw new BadInputException("no <Tag> element: this is not a .stacktags file", name, 1);
        }

        return new StackTagSet(Path.GetFileNameWithoutExtension(name), rules);
    }

    /// <summary>Writes the set as WPA <c>.stacktags</c> XML.</summary>
    public static string ToStackTags(StackTagSet set)
    {
        var sb = new StringBuilder();
        sb.Append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Tag Name=\"\">\n");
        foreach (var group in set.Rules.GroupBy(r => r.Tag, StringComparer.Ordinal))
        {
            sb.Append(CultureInfo.InvariantCulture, $"  <Tag Name=\"{Xml(group.Key)}\" Priority=\"{group.Max(r => r.Priority)}\">\n");
            foreach (var rule in group)
            {
                sb.Append(CultureInfo.InvariantCulture, $"    <Entrypoint Module=\"{Xml(rule.ModulePattern)}\" Method=\"{Xml(rule.FunctionPattern)}\" />\n");
            }

            sb.Append("  </Tag>\n");
        }

        return sb.Append("</Tag>\n").ToString();
    }

    /// <summary>Writes the set as PerfView GroupPats: one <c>module!function-&gt;tag</c> pattern per line, highest priority first.</summary>
    public static string ToPerfViewGroupPats(StackTagSet set)
    {
        var sb = new StringBuilder();
        foreach (var rule in set.Rules.OrderByDescending(r => r.Priority))
        {
            sb.Append(rule.ModulePattern).Append('!').Append(rule.FunctionPattern).Append("->").Append(rule.Tag.Replace(';', ',')).Append('\n');
        }

        return sb.ToString();
    }

    private static string Xml(string s) => s.Replace("&", "&amp;").Replace("\"", "&quot;").Replace("<", "&lt;").Replace(">", "&gt;");
}
