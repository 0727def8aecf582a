package accord.local;

import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;

/**
 * Stored documents made to share their field names and their frequent short strings.
 *
 * <p>mongo-java-server decodes every document from the wire into new objects: each field name and
 * each string value its own {@code String}, kept as long as the document is. The consent service's
 * documents repeat the same dozen names and the same few accounts, applications, issuers, targets
 * and scopes: at 100,000 events the memory backend held 9.2 million strings, most of them copies,
 * and its garbage collector paused every request while it copied them (docs/benchmarks.md, "The
 * database's pauses"). The collections pass each document they store through {@link #share}, which
 * replaces a name or a short value by an equal string it saw before.
 *
 * <p>The table is a fixed array indexed by the string's hash, one string per slot, a newer one
 * replacing an older one on a collision: its memory is bounded whatever the data (names and values
 * sent by clients are never accumulated), and a value seen in most documents stays in its slot. Only
 * equal strings are exchanged, so every answer is the same; reads and writes of a slot race
 * harmlessly (a string is immutable, and a lost write is one miss).
 */
final class SharedStrings {
  /** Slots: a power of two. 2^16 references: 256 KB at most with compressed pointers. */
  private static final int SLOTS = 1 << 16;

  /** Values longer than this are ids, tokens and texts, rarely repeated: left as they are. */
  static final int MAX_SHARED_LENGTH = 64;

  private static final String[] table = new String[SLOTS];

  private SharedStrings() {}

  /** The string equal to {@code s} that the table holds, after putting {@code s} there if none. */
  static String shared(String s) {
    int h = s.hashCode();
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    String held = table[slot];
    if (held != null && (held == s || held.equals(s))) return held;
    table[slot] = s;
    return s;
  }

  /**
   * Makes {@code document} (in place) and the documents and lists inside it use shared names and
   * short string values; its fields, their order and every value stay equal. A document whose names
   * are all shared already keeps its map; one with a name not yet shared is refilled in order.
   */
  static void share(Document document) {
    boolean namesShared = true;
    for (Map.Entry<String, Object> e : document.entrySet()) {
      String name = e.getKey();
      if (shared(name) != name) namesShared = false;
      Object value = e.getValue();
      Object v = value(value);
      if (v != value) e.setValue(v);
    }
    if (namesShared) return;
    List<Map.Entry<String, Object>> entries = new ArrayList<>(document.size());
    for (Map.Entry<String, Object> e : document.entrySet()) entries.add(Map.entry(shared(e.getKey()), nonNull(e.getValue())));
    document.clear();
    for (Map.Entry<String, Object> e : entries) document.put(e.getKey(), e.getValue() == NULL ? null : e.getValue());
  }

  /** Map.entry refuses null: a stand-in while a document is refilled. */
  private static final Object NULL = new Object();

  private static Object nonNull(Object v) {
    return v == null ? NULL : v;
  }

  @SuppressWarnings("unchecked")
  private static Object value(Object value) {
    if (value instanceof String s) return s.length() <= MAX_SHARED_LENGTH ? shared(s) : s;
    if (value instanceof Document d) share(d);
    else if (value instanceof List<?> list) {
      ListIterator<Object> it = ((List<Object>) list).listIterator();
      try {
        while (it.hasNext()) {
          Object item = it.next();
          Object v = value(item);
          if (v != item) it.set(v);
        }
      } catch (UnsupportedOperationException unmodifiable) {
        // a list that cannot be changed keeps its own strings (the documents inside it are shared above)
      }
    }
    return value;
  }
}
