using System.Globalization;
using System.Xml;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>Parses the <c>event_data</c> XML that <c>sys.fn_xe_file_target_read_file</c> returns for one event.</summary>
public static class XeEventXml
{
    /// <summary>The event's name, timestamp, data fields and actions (values as text).</summary>
    public static (string Name, DateTime Utc, Dictionary<string, string> Fields, Dictionary<string, string> Actions) Parse(string xml)
    {
        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        var actions = new Dictionary<string, string>(StringComparer.Ordinal);
        string name = "";
        var utc = DateTime.MinValue;
        using var reader = XmlReader.Create(new StringReader(xml), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, IgnoreWhitespace = true });
        string? currentName = null;
        var currentIsAction = false;
        var inValue = false;
        while (reader.Read())
        {
            if (reader.NodeType == XmlNodeType.Element)
            {
                switch (reader.LocalName)
                {
                    case "event":
                        name = reader.GetAttribute("name") ?? "";
                        var ts = reader.GetAttribute("timestamp");
                        if (ts is not null && DateTime.TryParse(ts, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var t))
                        {
                            utc = t;
                        }

                        break;
                    case "data":
                    case "action":
                        currentName = reader.GetAttribute("name");
                        currentIsAction = reader.LocalName == "action";
                        break;
                    case "value":
                        inValue = !reader.IsEmptyElement;
                        break;
                }
            }
            else if (reader.NodeType is XmlNodeType.Text or XmlNodeType.CDATA && inValue && currentName is not null)
            {
                (currentIsAction ? actions : fields)[currentName] = reader.Value;
            }
            else if (reader.NodeType == XmlNodeType.EndElement && reader.LocalName == "value")
            {
                inValue = false;
            }
        }

        return (name, utc, fields, actions);
    }

    /// <summary>A page event from parsed XML; <paramref name="pagesField"/> names the page-count field discovered at run time.</summary>
    public static PageEvent ToPageEvent(string xml, string? pagesField)
    {
        var (name, utc, fields, actions) = Parse(xml);
        fields.TryGetValue("memory_clerk_name", out var clerk);
        long pages = 1;
        if (pagesField is not null && fields.TryGetValue(pagesField, out var p))
        {
            long.TryParse(p, NumberStyles.Integer, CultureInfo.InvariantCulture, out pages);
        }

        int? session = actions.TryGetValue("session_id", out var s) && int.TryParse(s, NumberStyles.Integer, CultureInfo.InvariantCulture, out var id) ? id : null;
        return new PageEvent(utc, name, session, clerk ?? "", pages);
    }
}
