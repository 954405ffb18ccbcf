using System.Reflection;
using System.Text.Json;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.Speedscope;

/// <summary>Converts a stack profile to speedscope's format: one sampled profile per process, heaviest process first.</summary>
public static class SpeedscopeWriter
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = false };

    /// <summary>The speedscope model of <paramref name="profile"/>.</summary>
    public static SpeedscopeFile Convert(StackProfile profile, string name)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var file = new SpeedscopeFile { Name = name, ActiveProfileIndex = 0, Exporter = "probe@" + Version() };
        var frameIndex = new Dictionary<int, int>();
        foreach (var group in profile.Entries.GroupBy(e => e.Process, StringComparer.Ordinal).OrderByDescending(g => g.Sum(e => e.Weight)).ThenBy(g => g.Key, StringComparer.Ordinal))
        {
            var samples = new List<int[]>();
            var weights = new List<double>();
            long total = 0;
            foreach (var (_, stack, weight) in group.OrderByDescending(e => e.Weight).ThenBy(e => e.StackId))
            {
                var ids = profile.Stacks.FramesRootFirst(stack);
                var indices = new int[ids.Length];
                for (var i = 0; i < ids.Length; i++)
                {
                    if (!frameIndex.TryGetValue(ids[i], out var index))
                    {
                        index = file.Shared.Frames.Count;
                        var frame = profile.Frames[ids[i]];
                        file.Shared.Frames.Add(new SpeedscopeFrame { Name = DisplayName(frame), File = frame.Module.Length == 0 ? null : frame.Module });
                        frameIndex.Add(ids[i], index);
                    }

                    indices[i] = index;
                }

                samples.Add(indices);
                weights.Add(weight);
                total = checked(total + weight);
            }

            file.Profiles.Add(new SpeedscopeProfile { Type = "sampled", Name = group.Key, Unit = "none", StartValue = 0, EndValue = total, Samples = samples, Weights = weights });
        }

        return file;
    }

    /// <summary>Writes <paramref name="profile"/> as speedscope JSON.</summary>
    public static void Write(StackProfile profile, string name, Stream output) =>
        JsonSerializer.Serialize(output, Convert(profile, name), Json);

    /// <summary>Writes a speedscope model as JSON.</summary>
    public static void Write(SpeedscopeFile file, Stream output) => JsonSerializer.Serialize(output, file, Json);

    /// <summary>Reads a speedscope file (sampled or evented profiles).</summary>
    public static SpeedscopeFile Read(Stream input)
    {
        try
        {
            return JsonSerializer.Deserialize<SpeedscopeFile>(input, Json) ?? throw new BadInputException("the file holds no JSON object; a speedscope file is one");
        }
        catch (JsonException e)
        {
            throw new BadInputException("not a speedscope file: " + e.Message.Split('\n')[0], null, null, e);
        }
    }

    private static string DisplayName(Frame frame) => frame.Kind switch
    {
        FrameKind.Kernel => frame.Symbol + " [kernel]",
        FrameKind.Jit => frame.Symbol + " [jit]",
        FrameKind.Inlined => frame.Symbol + " [inlined]",
        _ => frame.Symbol,
    };

    private static string Version()
    {
        var assembly = Assembly.GetEntryAssembly() ?? typeof(SpeedscopeWriter).Assembly;
        var informational = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        return (informational ?? assembly.GetName().Version?.ToString() ?? "0.0.0").Split('+')[0];
    }
}
