package accord.local;

import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Document;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import java.util.Iterator;
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

  /**
   * Entries per leaf (at most): ACCORD_LOCAL_MONGO_INDEX_LEAF, a test's knob (a tiny leaf splits
   * and merges at every few writes), else 64.
   */
  static final int LEAF = leafCapacity(System.getenv("ACCORD_LOCAL_MONGO_INDEX_LEAF"));

  static int leafCapacity(String setting) {
    if (setting == null || setting.isEmpty()) return 64;
    int n = Integer.parseInt(setting);
    if (n < 2 || n > 4096) throw new IllegalArgumentException("ACCORD_LOCAL_MONGO_INDEX_LEAF must be 2..4096, not " + setting);
    return n;
  }

  final String name;
  final String[] keys;
  final boolean[] ascending;
  final boolean sparse;
  private final Comparator<Object> positions;
  /** References per entry: the keys' values, then the position. */
  private final int width;
  /**
   * The entries in index order, in leaves of at most {@link #LEAF} entries each, every leaf's
   * entries after the previous leaf's: an entry is {@link #width} references in a row of its
   * leaf's array, nothing else (a TreeSet of records took an entry object, its array of values
   * and a tree node: about 100 bytes per entry; here 4 bytes per reference, plus the leaves'
   * unused room).
   */
  private final ArrayList<Leaf> leaves = new ArrayList<>();
  private int size;
  private int multikeyDocuments;
  /** Documents a sparse index leaves out though one of its keys is there, as a null (a distinct lists that null). */
  private int nullsLeftOut;

  private static final class Leaf {
    final Object[] slots;
    int count;

    Leaf(int width) {
      slots = new Object[LEAF * width];
    }
  }

  /** {@code positions}: the collection's natural order of its documents' positions. */
  OrderedIndex(String name, List<IndexKey> keys, boolean sparse, Comparator<Object> positions) {
    this.positions = positions;
    this.name = name;
    this.keys = keys.stream().map(IndexKey::getKey).toArray(String[]::new);
    this.ascending = new boolean[keys.size()];
    for (int i = 0; i < keys.size(); i++) ascending[i] = keys.get(i).isAscending();
    this.sparse = sparse;
    this.width = this.keys.length + 1;
  }

  /** Compares the entry at {@code offset} of {@code slots} with a probe (values, position) in index order. */
  private int compare(Object[] slots, int offset, Object[] values, Object position) {
    for (int i = 0; i < keys.length; i++) {
      Object x = slots[offset + i];
      Object y = values[i];
      int c = compareValue(x, y);
      // a bound is below (MIN) or above (MAX) every value in the index's order, whichever its direction
      if (c != 0) return ascending[i] || x == MIN || x == MAX || y == MIN || y == MAX ? c : -c;
    }
    return comparePosition(slots[offset + keys.length], position);
  }

  private int compareProbes(Object[] a, Object p, Object[] b, Object q) {
    Object[] row = java.util.Arrays.copyOf(a, width);
    row[keys.length] = p;
    return compare(row, 0, b, q);
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

  /**
   * Where the first entry not below the probe is: {@code leaf << 32 | slot}, or {@code
   * leaves.size() << 32} past the last.
   */
  private long lowerBound(Object[] values, Object position) {
    int lo = 0;
    int hi = leaves.size();
    while (lo < hi) { // the first leaf whose last entry is not below the probe
      int mid = (lo + hi) >>> 1;
      Leaf l = leaves.get(mid);
      if (compare(l.slots, (l.count - 1) * width, values, position) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo == leaves.size()) return (long) lo << 32;
    Leaf l = leaves.get(lo);
    int a = 0;
    int b = l.count - 1; // its last entry is not below the probe
    while (a < b) {
      int mid = (a + b) >>> 1;
      if (compare(l.slots, mid * width, values, position) < 0) a = mid + 1;
      else b = mid;
    }
    return (long) lo << 32 | a;
  }

  private static int leafOf(long at) {
    return (int) (at >>> 32);
  }

  private static int slotOf(long at) {
    return (int) at;
  }

  private void insert(Object[] values, Object position) {
    int li = 0;
    int slot = 0;
    if (leaves.isEmpty()) {
      leaves.add(new Leaf(width));
    } else {
      long at = lowerBound(values, position);
      li = leafOf(at);
      slot = slotOf(at);
      // between two leaves (or past the last): the end of the one before
      if (li == leaves.size() || (slot == 0 && li > 0)) {
        li--;
        slot = leaves.get(li).count;
      }
    }
    share(values, position, li, slot);
    Leaf leaf = leaves.get(li);
    if (leaf.count == LEAF) {
      if (slot == LEAF) {
        // at the end of a full leaf (appends in key order, as ids grow): the next leaf's start when it has room, else a leaf of its own
        Leaf next = li + 1 < leaves.size() ? leaves.get(li + 1) : null;
        if (next == null || next.count == LEAF) {
          next = new Leaf(width);
          leaves.add(li + 1, next);
        }
        leaf = next;
        slot = 0;
      } else {
        Leaf right = new Leaf(width);
        int half = LEAF / 2;
        System.arraycopy(leaf.slots, half * width, right.slots, 0, (LEAF - half) * width);
        java.util.Arrays.fill(leaf.slots, half * width, LEAF * width, null);
        right.count = LEAF - half;
        leaf.count = half;
        leaves.add(li + 1, right);
        if (slot > half) {
          leaf = right;
          slot -= half;
        }
      }
    }
    int offset = slot * width;
    System.arraycopy(leaf.slots, offset, leaf.slots, offset + width, (leaf.count - slot) * width);
    System.arraycopy(values, 0, leaf.slots, offset, keys.length);
    leaf.slots[offset + keys.length] = position;
    leaf.count++;
    size++;
  }

  private boolean delete(Object[] values, Object position) {
    long at = lowerBound(values, position);
    int li = leafOf(at);
    if (li == leaves.size()) return false;
    Leaf leaf = leaves.get(li);
    int slot = slotOf(at);
    int offset = slot * width;
    if (compare(leaf.slots, offset, values, position) != 0) return false;
    System.arraycopy(leaf.slots, offset + width, leaf.slots, offset, (leaf.count - slot - 1) * width);
    leaf.count--;
    java.util.Arrays.fill(leaf.slots, leaf.count * width, (leaf.count + 1) * width, null);
    size--;
    if (leaf.count == 0) {
      leaves.remove(li);
    } else if (leaf.count <= LEAF / 4 && li > 0 && leaves.get(li - 1).count + leaf.count <= LEAF * 3 / 4) {
      // a leaf emptied by deletes goes into the one before, so that removals give the room back
      Leaf before = leaves.get(li - 1);
      System.arraycopy(leaf.slots, 0, before.slots, before.count * width, leaf.count * width);
      before.count += leaf.count;
      leaves.remove(li);
    }
    return true;
  }

  /** Whether this index may answer queries now (no document holds an array on its keys). */
  boolean usable() {
    return multikeyDocuments == 0;
  }

  int size() {
    return size;
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
    if (values != null) insert(values, position);
    else if (holdsNull(doc)) nullsLeftOut++;
  }

  /**
   * Replaces, in the values of an entry about to go at {@code slot} of leaf {@code li}, each string
   * by the equal one its neighbour in the index already holds, and an {@code _id} by the position
   * when equal: over the H2 file the index is what keeps the values alive (the documents are read
   * from the file and dropped), and most of an entry's keys (account, issuer, target, application)
   * repeat from entry to entry — about half the heap the index takes.
   */
  private void share(Object[] values, Object position, int li, int slot) {
    Leaf leaf = leaves.get(li);
    Object[] near = null;
    int offset = 0;
    if (slot > 0) {
      near = leaf.slots;
      offset = (slot - 1) * width;
    } else if (slot < leaf.count) {
      near = leaf.slots;
      offset = slot * width;
    }
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (!(v instanceof String string)) continue;
      if (near != null && near[offset + i] != v && v.equals(near[offset + i])) values[i] = near[offset + i];
      else if (keys[i].equals("_id") && v.equals(position)) values[i] = position;
      else values[i] = SEEN.canonical(string);
    }
  }

  /** The strings the indexes met last, shared by every index of every collection. */
  private static final Seen SEEN = new Seen(1 << 14);

  /**
   * The last string met of each hash slot (a direct-mapped table, no other memory): a value met
   * again while its slot still holds it (an account, issuer, target, scope or application, met by
   * nearly every write; a subject met by the event and then its state, its subject marker) is kept
   * once, however many entries of however many indexes hold it. A value a neighbour in its index
   * does not hold (the first check) is looked up here. Written without a lock by the collections'
   * writers: a race only makes a miss, a string read from here is always compared first.
   */
  static final class Seen {
    private final String[] slots;

    Seen(int size) {
      slots = new String[size];
    }

    String canonical(String s) {
      int slot = (s.hashCode() ^ (s.hashCode() >>> 14)) & (slots.length - 1);
      String held = slots[slot];
      if (held != null && held.equals(s)) return held;
      slots[slot] = s;
      return s;
    }
  }

  void remove(Document doc, Object position) {
    boolean[] multikey = {false};
    Object[] values = valuesOf(doc, multikey);
    if (multikey[0]) multikeyDocuments--;
    if (values == null && holdsNull(doc)) nullsLeftOut--;
    if (values != null && !delete(values, position))
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
    for (Leaf l : leaves) for (int i = 0; i < l.count; i++) values.add(l.slots[i * width]); // ties in natural order: the first kept is the scan's first
    return values;
  }

  /**
   * A document's values changed (update in place): its entry moves if its keys changed. Most
   * updates change no key of an index (the outbox's and the sequencer's {@code $unset} of their own
   * sparse key, a state's {@code $max} of {@code cur}): the entry then stays where it is, found by
   * nothing and moved by nothing. Equal means the same values (Java's equals: a 1 becoming 1.0 is
   * a change, a distinct lists the stored value), the same arrays met and, for a document a sparse
   * index leaves out, the same null held (the count a distinct relies on).
   */
  void update(Document before, Document after, Object position) {
    boolean[] multikeyBefore = {false};
    boolean[] multikeyAfter = {false};
    Object[] old = valuesOf(before, multikeyBefore);
    Object[] now = valuesOf(after, multikeyAfter);
    if (multikeyBefore[0] == multikeyAfter[0]
        && (old == null ? now == null && holdsNull(before) == holdsNull(after) : now != null && java.util.Arrays.equals(old, now))) return;
    remove(before, position);
    add(after, position);
  }

  /**
   * The entries whose first {@code prefix.length} keys equal {@code prefix} (comparator-equal:
   * numbers of any type, a null matching null or missing) and whose next key, when {@code range}
   * is given, lies within it; in index order.
   */
  Span scan(Object[] prefix, Range range) {
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
    if (compareProbes(low, lowPosition, high, highPosition) > 0) return new Span(0, 0);
    // a probe's position is FIRST or LAST, never an entry's: the first entry not below the upper probe is the first above it
    return new Span(lowerBound(low, lowPosition), lowerBound(high, highPosition));
  }

  /** The entries from {@code from} (included) to {@code to} (excluded), as {@link #lowerBound} gives them; read under the collection's lock. */
  final class Span {
    private final long from;
    private final long to;

    private Span(long from, long to) {
      this.from = from;
      this.to = to;
    }

    /** The entries' positions in index order, or reversed. */
    Iterator<Object> positions(boolean forward) {
      return forward ? new Forward() : new Backward();
    }

    private final class Forward implements Iterator<Object> {
      private int li = leafOf(from);
      private int slot = slotOf(from);

      @Override
      public boolean hasNext() {
        if (li < leaves.size() && slot == leaves.get(li).count) {
          li++;
          slot = 0;
        }
        return li < leafOf(to) || (li == leafOf(to) && slot < slotOf(to));
      }

      @Override
      public Object next() {
        if (!hasNext()) throw new java.util.NoSuchElementException();
        return leaves.get(li).slots[slot++ * width + keys.length];
      }
    }

    private final class Backward implements Iterator<Object> {
      /** The entry after the next one returned. */
      private int li = leafOf(to);
      private int slot = slotOf(to);

      @Override
      public boolean hasNext() {
        if (slot == 0 && li > 0) {
          li--;
          slot = leaves.get(li).count;
        }
        return li > leafOf(from) || (li == leafOf(from) && slot > slotOf(from));
      }

      @Override
      public Object next() {
        if (!hasNext()) throw new java.util.NoSuchElementException();
        return leaves.get(li).slots[--slot * width + keys.length];
      }
    }
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
    return name + Map.of("keys", List.of(keys), "size", size, "leaves", leaves.size());
  }
}
