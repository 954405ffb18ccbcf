
namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Named stack tags. A sample's tag is found by walking its frames from the leaf towards the root: the first
/// frame that matches any rule decides; when rules of several tags match that frame, the highest priority
/// wins, then the earliest rule. Samples no rule matches are tagged <see cref="Other"/>.
/// </summary>
public sealed class StackTagSet
{
    /// <summary>The tag of samples no rule matches.</summary>
    public const string Other = "[other]";

    /// <summary>Creates a set.</summary>
    public StackTagSet(string name, IReadOnlyList<StackTagRule> rules)
    {
        Name = name;
        Rules = rules;
    }

    public string Name { get; }

    /// <summary>Rules in file order.</summary>
    public IReadOnlyList<StackTagRule> Rules { get; }

    /// <summary>Tag names in first-seen order.</summary>
    public IReadOnlyList<string> TagNames => Rules.Select(r => r.Tag).Distinct(StringComparer.Ordinal).ToArray();

    /// <summary>A set holding the rules of both, this one's first.</summary>
    public StackTagSet Merge(StackTagSet other) => new(Name + "+" + other.Name, [.. Rules, .. other.Rules]);

    /// <summary>The tag a single frame matches, or null.</summary>
    public string? TagOfFrame(Frame frame)
    {
        StackTagRule? best = null;
        foreach (var rule in Rules)
        {
            if ((best is null || rule.Priority > best.Priority) && rule.Matches(frame.Module, frame.Symbol))
            {
                best = rule;
            }
        }

        return best?.Tag;
    }

    /// <summary>Weight per tag for one process's samples (all processes when null), heaviest first.</summary>
    public IReadOnlyList<(string Tag, long Weight)> Weigh(StackProfile profile, string? process)
    {
        var frameTags = new Dictionary<int, string?>();
        var stackTags = new Dictionary<int, string>();
        var weights = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (proc, stack, weight) in profile.Entries)
        {
            if (process is not null && !string.Equals(proc, process, StringComparison.Ordinal))
            {
                continue;
            }

            if (!stackTags.TryGetValue(stack, out var tag))
            {
                tag = Other;
                for (var s = stack; s != StackTable.Empty; s = profile.Stacks.CallerOf(s))
                {
                    var frameId = profile.Stacks.LeafFrameOf(s);
                    if (!frameTags.TryGetValue(frameId, out var frameTag))
                    {
                        frameTags[frameId] = frameTag = TagOfFrame(profile.Frames[frameId]);
                    }

                    if (frameTag is not null)
                    {
                        tag = frameTag;
                        break;
                    }
                }

                stackTags[stack] = tag;
            }

            weights[tag] = checked(weights.GetValueOrDefault(tag) + weight);
        }

        return weights.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal).Select(kv => (kv.Key, kv.Value)).ToArray();
    }
}
