package accord.local;

import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a query filter as what an index can narrow: a list of branches (one, or one per branch of
 * an {@code $or}), each a map from field to its conditions (equal to one of some plain values,
 * within a range, missing). It only ever narrows: whatever it does not understand it leaves out,
 * which makes the documents an index finds for it a superset of those the filter matches; the
 * collection matches every one of them against the whole filter again. So the only way to get a
 * wrong answer is an index that misses a matching document, which OrderedIndex rules out for the
 * conditions read here (plain values, comparator ranges, no arrays on the keys).
 */
final class QueryPlanner {
  private QueryPlanner() {}

  /** At most this many branches (an {@code $or}) or equality tuples (products of {@code $in}s) per query. */
  static final int MAX_LOOKUPS = 10_000;

  /** The conditions of one field in one branch. */
  static final class Condition {
    /** Equal to one of these (plain) values; null when no equality was read. */
    List<Object> equals;
    /** Missing (or null) when true: from {@code {$exists: false}} on the field or on a path above it. */
    boolean missing;
    /** There (holding anything, null included) when true: from {@code {$exists: true}}. */
    boolean present;
    OrderedIndex.Range range;

    Condition copy() {
      Condition c = new Condition();
      c.equals = equals;
      c.missing = missing;
      c.present = present;
      if (range != null) {
        c.range = new OrderedIndex.Range();
        c.range.lower = range.lower;
        c.range.lowerInclusive = range.lowerInclusive;
        c.range.upper = range.upper;
        c.range.upperInclusive = range.upperInclusive;
      }
      return c;
    }
  }

  /** The branches of {@code filter}: a match of the filter matches every condition of at least one branch. */
  static List<Map<String, Condition>> branches(Document filter) {
    Map<String, Condition> base = new LinkedHashMap<>();
    List<List<Document>> ors = new ArrayList<>();
    read(filter, base, ors);
    if (ors.isEmpty()) return List.of(base);
    // the first $or whose branches are documents splits the query; any other is left out (a superset)
    List<Document> or = ors.get(0);
    if (or.isEmpty() || or.size() > MAX_LOOKUPS) return List.of(base);
    List<Map<String, Condition>> out = new ArrayList<>();
    for (Document branch : or) {
      Map<String, Condition> conditions = new LinkedHashMap<>();
      base.forEach((k, v) -> conditions.put(k, v.copy()));
      read(branch, conditions, new ArrayList<>());
      out.add(conditions);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static void read(Document filter, Map<String, Condition> into, List<List<Document>> ors) {
    for (Map.Entry<String, Object> e : filter.entrySet()) {
      String key = e.getKey();
      Object value = e.getValue();
      if (key.equals("$and") && value instanceof List<?> list) {
        for (Object part : list) if (part instanceof Document d) read(d, into, ors);
      } else if (key.equals("$or") && value instanceof List<?> list) {
        if (list.stream().allMatch(b -> b instanceof Document)) ors.add((List<Document>) list);
      } else if (key.startsWith("$")) {
        // $nor, $expr, $comment, ...: left out
      } else if (value instanceof Document d && !d.isEmpty() && d.keySet().stream().allMatch(k -> k.startsWith("$"))) {
        for (Map.Entry<String, Object> op : d.entrySet()) operator(into, key, op.getKey(), op.getValue());
      } else if (OrderedIndex.plain(value)) {
        condition(into, key).equals = condition(into, key).equals == null ? List.of(value) : condition(into, key).equals;
      }
      // null, documents, arrays, regular expressions: left out
    }
  }

  private static void operator(Map<String, Condition> into, String field, String op, Object value) {
    switch (op) {
      case "$eq" -> {
        if (OrderedIndex.plain(value) && condition(into, field).equals == null) condition(into, field).equals = List.of(value);
      }
      case "$in" -> {
        if (value instanceof Collection<?> values
            && !values.isEmpty()
            && values.size() <= MAX_LOOKUPS
            && values.stream().allMatch(OrderedIndex::plain)
            && condition(into, field).equals == null) condition(into, field).equals = new ArrayList<>(values);
      }
      case "$gt", "$gte" -> {
        if (OrderedIndex.plain(value)) range(into, field).lower(value, op.equals("$gte"));
      }
      case "$lt", "$lte" -> {
        if (OrderedIndex.plain(value)) range(into, field).upper(value, op.equals("$lte"));
      }
      case "$exists" -> {
        if (Boolean.FALSE.equals(value) || Integer.valueOf(0).equals(value)) condition(into, field).missing = true;
        else if (Boolean.TRUE.equals(value) || Integer.valueOf(1).equals(value)) condition(into, field).present = true;
      }
      default -> {
        // left out
      }
    }
  }

  private static Condition condition(Map<String, Condition> into, String field) {
    return into.computeIfAbsent(field, k -> new Condition());
  }

  private static OrderedIndex.Range range(Map<String, Condition> into, String field) {
    Condition c = condition(into, field);
    if (c.range == null) c.range = new OrderedIndex.Range();
    return c.range;
  }

  /** How one index answers one branch: the equality tuples of its first keys, and a range on the next. */
  record Lookup(OrderedIndex index, List<Object[]> prefixes, OrderedIndex.Range range) {
    int equalKeys() {
      return prefixes.get(0).length;
    }
  }

  /**
   * The best lookup of {@code index} for {@code branch}, or null: the longest run of leading keys
   * with an equality (or missing, for a non-sparse index), then a range on the next key if any.
   */
  static Lookup lookup(OrderedIndex index, Map<String, Condition> branch) {
    if (!index.usable()) return null;
    List<Object[]> prefixes = new ArrayList<>();
    prefixes.add(new Object[0]);
    int k = 0;
    for (; k < index.keys.length; k++) {
      List<Object> values = equalities(index, branch, index.keys[k]);
      if (values == null) break;
      if ((long) prefixes.size() * values.size() > MAX_LOOKUPS) break;
      List<Object[]> next = new ArrayList<>(prefixes.size() * values.size());
      for (Object[] p : prefixes)
        for (Object v : values) {
          Object[] q = java.util.Arrays.copyOf(p, p.length + 1);
          q[p.length] = v;
          next.add(q);
        }
      prefixes = next;
    }
    OrderedIndex.Range range = null;
    if (k < index.keys.length) {
      Condition c = branch.get(index.keys[k]);
      if (c != null && c.range != null) range = c.range;
    }
    if (k == 0 && range == null) {
      // {f: {$exists: true}} (the outbox's pending events): every entry of a sparse index of f alone
      Condition c = branch.get(index.keys[0]);
      return c != null && c.present && index.holdsEveryPresent() ? new Lookup(index, prefixes, null) : null;
    }
    return new Lookup(index, prefixes, range);
  }

  /** The values a key is equal to in the branch (a null for missing), or null when not known. */
  private static List<Object> equalities(OrderedIndex index, Map<String, Condition> branch, String key) {
    Condition c = branch.get(key);
    if (c != null && c.equals != null) return c.equals;
    if (index.sparse) return null; // a sparse index does not hold the documents without its keys
    if (c != null && c.missing) return java.util.Collections.singletonList(null);
    // missing above the key: {cur: {$exists: false}} leaves cur.appId missing too
    for (Map.Entry<String, Condition> e : branch.entrySet())
      if (e.getValue().missing && key.startsWith(e.getKey() + ".")) return java.util.Collections.singletonList(null);
    return null;
  }
}
