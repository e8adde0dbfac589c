// Dump prints a properties file as java.util.Properties reads it (the way Kafka's
// Utils.loadProps reads client and broker configs): one JSON object, keys sorted.
// Regenerate the golden files with: for f in *.properties; do java Dump.java $f > ${f%.properties}.json; done
import java.io.FileInputStream;
import java.util.Properties;
import java.util.TreeMap;

public class Dump {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        try (FileInputStream in = new FileInputStream(args[0])) {
            p.load(in);
        }
        TreeMap<String, String> sorted = new TreeMap<>();
        for (String k : p.stringPropertyNames()) sorted.put(k, p.getProperty(k));
        StringBuilder b = new StringBuilder("{\n");
        int i = 0;
        for (var e : sorted.entrySet()) {
            b.append("  ").append(q(e.getKey())).append(": ").append(q(e.getValue()));
            b.append(++i < sorted.size() ? ",\n" : "\n");
        }
        System.out.print(b.append("}\n"));
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
