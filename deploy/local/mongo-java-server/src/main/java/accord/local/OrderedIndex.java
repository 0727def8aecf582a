package accord.local;

import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Document;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * An ordered in-memory index over one collection's documents, kept by IndexedCollection on every
 * insert, update and removal: entries (the values of the index's keys, the document's position),
 * ordered as the index declares (each key ascending or descending, by mongo-java-server's own
 * ValueComparator), ties broken by position in the collection's natural order (the memory
 * backend's list index, the H2 backend's key in its MVMap's order: {@code positions}).
 *
 * <p>A missing key and a {@code null} are both kept as {@code null}. A document holding an array
 * anywhere on a key's path makes the index "multikey", and a multikey index answers nothing (the
 * matcher compares each element of an array, a key lookup does not) until no such document is
 * left. A sparse index leaves out documents without any of its keys, as MongoDB does.
 */
final class OrderedIndex {
  /** Bounds in a probe entry: below and above every value. */
  private static final Object MIN = new Object();

  private static final Object MAX = new Object();

  /** Positions in a probe entry: before and after every document's. */
  private static final Object FIRST = new Object();

  private static final Object LAST = new Object();

  private static final Comparator<Object> VALUES = ValueComparator.ascWithoutListHandling();

  final String name;
  final String[] keys;
  final boolean[] ascending;
  final boolean sparse;
  private final Comparator<Object> positions;
  private final TreeSet<Entry> entries;
  private int multikeyDocuments;
  /** Documents a sparse index leaves out though one of its keys is there, as a null (a distinct lists that null). */
  private int nullsLeftOut;

  /** One document's values of the keys and its position (an Integer or an H2 key: see {@code positions}). */
  record Entry(Object[] values, Object position) {}

  /** {@code positions}: the collection's natural order of its documents' positions. */
  OrderedIndex(String name, List<IndexKey> keys, boolean sparse, Comparator<Object> positions) {
    this.positions = positions;
    this.name = name;
    this.keys = keys.stream().map(IndexKey::getKey).toArray(String[]::new);
    this.ascending = new boolean[keys.size()];
    for (int i = 0; i < keys.size(); i++) ascending[i] = keys.get(i).isAscending();
    this.sparse = sparse;
    this.entries = new TreeSet<>(this::compare);
  }

  private int compare(Entry a, Entry b) {
    for (int i = 0; i < keys.length; i++) {
      Object x = a.values[i];
      Object y = b.values[i];
      int c = compareValue(x, y);
      // a bound is below (MIN) or above (MAX) every value in the index's order, whichever its direction
      if (c != 0) return ascending[i] || x == MIN || x == MAX || y == MIN || y == MAX ? c : -c;
    }
    return comparePosition(a.position, b.position);
  }

  private int comparePosition(Object p, Object q) {
    if (p == q) return 0;
    if (p == FIRST || q == LAST) return -1;
    if (p == LAST || q == FIRST) return 1;
    return positions.compare(p, q);
  }

  private static int compareValue(Object x, Object y) {
    if (x == y) return 0;
    if (x == MIN || y == MAX) return -1;
    if (x == MAX || y == MIN) return 1;
    // what ValueComparator answers for two strings, without its type lookup (the keys are mostly strings)
    if (x instanceof String a && y instanceof String b) return a.compareTo(b);
    return VALUES.compare(x, y);
  }

  /** Whether this index may answer queries now (no document holds an array on its keys). */
  boolean usable() {
    return multikeyDocuments == 0;
  }

  int size() {
    return entries.size();
  }

  /** The values of the index's keys in {@code doc}, or null for a sparse index the document is not in. */
  private Object[] valuesOf(Document doc, boolean[] multikey) {
    Object[] values = new Object[keys.length];
    boolean any = false;
    for (int i = 0; i < keys.length; i++) {
      Object v = valueAt(doc, keys[i], multikey);
      values[i] = v;
      if (v != null) any = true;
    }
    return sparse && !any ? null : values;
  }

  /**
   * The value at a dotted path; null when missing or null (or when a step is not a document).
   * Sets multikey[0] when an array is met on the path.
   */
  static Object valueAt(Document doc, String path, boolean[] multikey) {
    Object current = doc;
    int from = 0;
    while (true) {
      int dot = path.indexOf('.', from);
      String part = dot < 0 ? path.substring(from) : path.substring(from, dot);
      if (!(current instanceof Document d)) {
        if (current instanceof Collection<?>) multikey[0] = true;
        return null;
      }
      Object next = d.get(part);
      if (next instanceof Collection<?>) {
        multikey[0] = true;
        return null;
      }
      if (dot < 0) return next instanceof de.bwaldvogel.mongo.backend.Missing ? null : next;
      current = next;
      from = dot + 1;
    }
  }

  void add(Document doc, Object position) {
    boolean[] multikey = {false};
    Object[] values = valuesOf(doc, multikey);
    if (multikey[0]) multikeyDocuments++;
    if (values != null) entries.add(new Entry(share(values, position), position));
    else if (holdsNull(doc)) nullsLeftOut++;
  }

  /**
   * The values with each string replaced by the equal one its neighbour in the index already
   * holds, and an {@code _id} by the position when equal: over the H2 file the index is what keeps
   * the values alive (the documents are read from the file and dropped), and most of an entry's
   * keys (account, issuer, target, application) repeat from entry to entry — about half the heap
   * the index takes.
   */
  private Object[] share(Object[] values, Object position) {
    Entry probe = new Entry(values, position);
    Entry near = entries.lower(probe);
    if (near == null) near = entries.higher(probe);
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (!(v instanceof String)) continue;
      if (near != null && near.values[i] != v && v.equals(near.values[i])) values[i] = near.values[i];
      else if (keys[i].equals("_id") && v.equals(position)) values[i] = position;
    }
    return values;
  }

  void remove(Document doc, Object position) {
    boolean[] multikey = {false};
    Object[] values = valuesOf(doc, multikey);
    if (multikey[0]) multikeyDocuments--;
    if (values == null && holdsNull(doc)) nullsLeftOut--;
    if (values != null && !entries.remove(new Entry(values, position)))
      throw new IllegalStateException("index " + name + " holds no entry for position " + position);
  }

  /**
   * Whether this is a sparse index of one key holding every document where that key is there (no
   * array on it, none holding it as null): its entries are then all the matches of {@code {$exists:
   * true}} on the key.
   */
  boolean holdsEveryPresent() {
    return sparse && keys.length == 1 && usable() && nullsLeftOut == 0;
  }

  /** Whether one of the keys' paths ends in a field that is there, holding null. */
  private boolean holdsNull(Document doc) {
    for (String key : keys) {
      int dot = key.lastIndexOf('.');
      Object parent = dot < 0 ? doc : valueAt(doc, key.substring(0, dot), new boolean[1]);
      if (parent instanceof Document d && d.containsKey(key.substring(dot + 1)) && d.get(key.substring(dot + 1)) == null) return true;
    }
    return false;
  }

  /**
   * The distinct values of a sparse index's one key over the whole collection, as
   * mongo-java-server's {@code distinct} collects them (its comparator, the first of equal values in
   * natural order kept); null when the index cannot tell them (another index shape, an array on
   * the key, or a document holding the key as null, which the index leaves out).
   */
  java.util.Set<Object> distinctValues() {
    if (!sparse || keys.length != 1 || !usable() || nullsLeftOut != 0) return null;
    java.util.Set<Object> values = new TreeSet<>(VALUES);
    for (Entry e : entries) values.add(e.values[0]); // ties in natural order: the first kept is the scan's first
    return values;
  }

  /** A document's values changed (update in place): its entry moves if its keys changed. */
  void update(Document before, Document after, Object position) {
    remove(before, position);
    add(after, position);
  }

  /**
   * The entries whose first {@code prefix.length} keys equal {@code prefix} (comparator-equal:
   * numbers of any type, a null matching null or missing) and whose next key, when {@code range}
   * is given, lies within it; in index order.
   */
  NavigableSet<Entry> scan(Object[] prefix, Range range) {
    Object[] low = new Object[keys.length];
    Object[] high = new Object[keys.length];
    System.arraycopy(prefix, 0, low, 0, prefix.length);
    System.arraycopy(prefix, 0, high, 0, prefix.length);
    for (int i = prefix.length; i < keys.length; i++) {
      low[i] = MIN;
      high[i] = MAX;
    }
    Object lowPosition = FIRST;
    Object highPosition = LAST;
    if (range != null && prefix.length < keys.length) {
      int k = prefix.length;
      // in the index's own order: a descending key has its upper bound first
      Object first = ascending[k] ? range.lower : range.upper;
      boolean firstInclusive = ascending[k] ? range.lowerInclusive : range.upperInclusive;
      Object last = ascending[k] ? range.upper : range.lower;
      boolean lastInclusive = ascending[k] ? range.upperInclusive : range.lowerInclusive;
      if (first != null) {
        low[k] = first;
        // an exclusive bound skips every entry holding that value: the keys after it above all
        for (int i = k + 1; i < keys.length; i++) low[i] = firstInclusive ? MIN : MAX;
        if (!firstInclusive) lowPosition = LAST;
      }
      if (last != null) {
        high[k] = last;
        for (int i = k + 1; i < keys.length; i++) high[i] = lastInclusive ? MAX : MIN;
        if (!lastInclusive) highPosition = FIRST;
      }
    }
    Entry from = new Entry(low, lowPosition);
    Entry to = new Entry(high, highPosition);
    if (compare(from, to) > 0) return new TreeSet<>(this::compare);
    return entries.subSet(from, true, to, true);
  }

  /** A range on one key: either bound may be absent (null). */
  static final class Range {
    Object lower;
    boolean lowerInclusive;
    Object upper;
    boolean upperInclusive;

    /** Keeps the tighter of two lower bounds of the same type (any one of them keeps the scan a superset). */
    void lower(Object value, boolean inclusive) {
      if (lower == null || (sameType(lower, value) && tighter(VALUES.compare(value, lower), inclusive, lowerInclusive, 1))) {
        lower = value;
        lowerInclusive = inclusive;
      }
    }

    void upper(Object value, boolean inclusive) {
      if (upper == null || (sameType(upper, value) && tighter(VALUES.compare(value, upper), inclusive, upperInclusive, -1))) {
        upper = value;
        upperInclusive = inclusive;
      }
    }

    private static boolean tighter(int c, boolean inclusive, boolean currentInclusive, int direction) {
      return c * direction > 0 || (c == 0 && !inclusive && currentInclusive);
    }

    private static boolean sameType(Object a, Object b) {
      return a.getClass() == b.getClass() || (a instanceof Number && b instanceof Number);
    }
  }

  /** Values an index lookup may stand for in an equality: plain scalars only (see QueryPlanner). */
  static boolean plain(Object v) {
    return v instanceof String
        || v instanceof Boolean
        || v instanceof Integer
        || v instanceof Long
        || v instanceof Double
        || v instanceof de.bwaldvogel.mongo.bson.ObjectId
        || v instanceof java.time.Instant; // a BSON date: the outbox's and the expiry sweep's {$lte: now}
  }

  @Override
  public String toString() {
    return name + Map.of("keys", List.of(keys), "size", entries.size());
  }
}
