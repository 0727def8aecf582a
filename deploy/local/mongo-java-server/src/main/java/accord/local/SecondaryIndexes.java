package accord.local;

import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The declared secondary indexes of one collection (OrderedIndex each) and how a query is answered
 * from them (QueryPlanner): shared by the memory backend's collections (IdLookupMemoryBackend) and
 * the H2 file backend's (IndexedH2Backend), which differ only in what a position is (an Integer,
 * an H2 key) and in their natural order ({@code order}).
 *
 * <p>The collection keeps them exact ({@link #added}, {@link #removed}, {@link #updated} from its
 * own add, remove and update hooks) and asks {@link #positions} for the documents an index finds:
 * a superset of the query's matches, in natural order, which the collection matches against the
 * whole query again, then sorts, skips, limits and projects with mongo-java-server's own code, so
 * the answer is the one a full scan gives, documents and order (ties included).
 *
 * @param <P> the collection's position type
 */
final class SecondaryIndexes<P> {
  /** What the indexes need of their collection. */
  interface Host<P> {
    Document document(P position);

    boolean matches(Document document, Document query);

    /** The collection's unique indexes (mongo-java-server's, the {@code _id} one among them). */
    List<Index<P>> uniqueIndexes();

    /** Every stored document with its position, in natural order. */
    Stream<DocumentWithPosition<P>> all();
  }

  private final Host<P> host;
  private final Comparator<Object> order;
  private final List<OrderedIndex> indexes = new CopyOnWriteArrayList<>();
  /** Declared but not built yet: built together, in one pass over the documents ({@link #build}). */
  private final List<OrderedIndex> pending = new ArrayList<>();

  /** {@code order}: the natural order of the collection's positions. */
  SecondaryIndexes(Host<P> host, Comparator<Object> order) {
    this.host = host;
    this.order = order;
  }

  boolean isEmpty() {
    return indexes.isEmpty();
  }

  /** The names of the built indexes. */
  List<String> names() {
    return indexes.stream().map(i -> i.name).toList();
  }

  /** Declares an index, built at the next {@link #build} (none answers before). */
  synchronized void declare(String name, List<IndexKey> keys, boolean sparse) {
    if (indexes.stream().anyMatch(i -> i.name.equals(name)) || pending.stream().anyMatch(i -> i.name.equals(name))) return;
    pending.add(new OrderedIndex(name, keys, sparse, order));
  }

  /** Builds the declared indexes from the stored documents, all in one pass. */
  @SuppressWarnings("unchecked")
  synchronized void build() {
    if (pending.isEmpty()) return;
    List<OrderedIndex> building = List.copyOf(pending);
    pending.clear();
    host.all().forEach(d -> {
      for (OrderedIndex index : building) index.add(d.getDocument(), d.getPosition());
    });
    indexes.addAll(building);
  }

  synchronized void undeclare(String name) {
    indexes.removeIf(i -> i.name.equals(name));
    pending.removeIf(i -> i.name.equals(name));
  }

  // --- keeping them exact (the collection calls these from its own hooks) ---

  void added(Document document, P position) {
    for (OrderedIndex index : indexes) index.add(document, position);
  }

  void removed(Document document, P position) {
    if (document != null) for (OrderedIndex index : indexes) index.remove(document, position);
  }

  void updated(Document before, Document after, P position) {
    for (OrderedIndex index : indexes) index.update(before, after, position);
  }

  // --- answering from them ---

  /**
   * Whether the collection should ask {@link #positions} at all: a non-empty query, an index, and
   * no {@code $natural} sort (answered by mongo-java-server's own scan in that order).
   */
  boolean consulted(Document query, Document orderBy) {
    return !indexes.isEmpty()
        && query != null
        && !query.isEmpty()
        && (orderBy == null || orderBy.keySet().stream().noneMatch(k -> k.startsWith("$")));
  }

  /** The documents an index finds for {@code query}: a superset of its matches, or null when no index narrows it. */
  @SuppressWarnings("unchecked")
  Iterable<P> positions(Document query, Document orderBy, int skip, int limit) {
    // a query a unique index answers (an _id or {_id: {$in}}) goes mongo-java-server's own way: its
    // documents then come in the index's order, not the natural one, and an updateOne of
    // {_id: {$in}} changes the first of them
    for (Index<P> unique : host.uniqueIndexes()) if (unique.canHandle(query)) return null;
    List<Map<String, QueryPlanner.Condition>> branches = QueryPlanner.branches(query);
    // sorted on _id alone, with a limit: walk one index in that order, stopping after the limit
    if (branches.size() == 1 && limit > 0 && orderBy != null && orderBy.size() == 1 && orderBy.get("_id") instanceof Number dir) {
      List<P> walked = walk(query, branches.get(0), dir.doubleValue() >= 0, skip + limit);
      if (walked != null) return walked;
    }
    TreeSet<Object> found = new TreeSet<>(order); // natural order
    for (Map<String, QueryPlanner.Condition> branch : branches) {
      if (!collect(branch, found)) return null;
    }
    return (Iterable<P>) (Iterable<?>) found;
  }

  /** Adds the positions one branch's best lookup finds; false when no index narrows the branch. */
  private boolean collect(Map<String, QueryPlanner.Condition> branch, TreeSet<Object> into) {
    QueryPlanner.Condition id = branch.get("_id");
    if (id != null && id.equals != null) {
      Index<P> primary = primaryIndex();
      Document lookup = new Document("_id", new Document("$in", id.equals));
      if (primary != null && primary.canHandle(lookup)) {
        for (P p : primary.getPositions(lookup)) into.add(p);
        return true;
      }
    }
    QueryPlanner.Lookup best = null;
    for (OrderedIndex index : indexes) {
      QueryPlanner.Lookup l = QueryPlanner.lookup(index, branch);
      if (l != null && (best == null || score(l) > score(best))) best = l;
    }
    if (best == null) return false;
    for (Object[] prefix : best.prefixes()) for (Iterator<Object> it = best.index().scan(prefix, best.range()).positions(true); it.hasNext(); ) into.add(it.next());
    return true;
  }

  private static int score(QueryPlanner.Lookup l) {
    return l.equalKeys() * 2 + (l.range() != null ? 1 : 0);
  }

  private Index<P> primaryIndex() {
    for (Index<P> index : host.uniqueIndexes()) if (index.getKeys().size() == 1 && index.getKeys().get(0).getKey().equals("_id")) return index;
    return null;
  }

  /**
   * The first {@code wanted} matches of {@code query} in {@code _id} order, from an index whose
   * equality keys (one value each) are followed by {@code _id}; null when there is none.
   */
  @SuppressWarnings("unchecked")
  private List<P> walk(Document query, Map<String, QueryPlanner.Condition> branch, boolean idAscending, int wanted) {
    QueryPlanner.Lookup best = null;
    for (OrderedIndex index : indexes) {
      QueryPlanner.Lookup l = QueryPlanner.lookup(index, branch);
      if (l == null || l.prefixes().size() != 1) continue;
      int k = l.equalKeys();
      if (k >= index.keys.length || !index.keys[k].equals("_id")) continue;
      if (best == null || score(l) > score(best)) best = l;
    }
    if (best == null) return null;
    OrderedIndex index = best.index();
    boolean forward = index.ascending[best.equalKeys()] == idAscending;
    Iterator<Object> it = index.scan(best.prefixes().get(0), best.range()).positions(forward);
    List<P> out = new ArrayList<>();
    while (it.hasNext() && out.size() < wanted) {
      P position = (P) it.next();
      if (host.matches(host.document(position), query)) out.add(position);
    }
    return out;
  }

  /**
   * A {@code distinct} without a filter, of a key a sparse index holds alone (the consent log's
   * sequencer asks {@code distinct('logq')} of every event, every pass): answered from that index;
   * null when none can (mongo-java-server matches every document).
   */
  Document distinct(Document command) {
    if (!(command.get("key") instanceof String key)) return null;
    Object filter = command.get("query");
    if (filter != null && !(filter instanceof Document d && d.isEmpty())) return null;
    for (OrderedIndex index : indexes) {
      if (index.keys.length != 1 || !index.keys[0].equals(key)) continue;
      java.util.Set<Object> values = index.distinctValues();
      if (values == null) continue;
      Document response = new Document("values", values);
      de.bwaldvogel.mongo.backend.Utils.markOkay(response);
      return response;
    }
    return null;
  }

  // --- an aggregation's first $match ---

  /** The first stage of the aggregation being run on this thread when it is a {@code $match} (see {@link #takeAggregationMatch}). */
  private static final ThreadLocal<Document> AGGREGATION_MATCH = new ThreadLocal<>();

  /**
   * Runs a database command with, for an {@code aggregate} whose first stage is a {@code $match},
   * that match at hand for the collection's {@code queryAllAsStream} (mongo-java-server 1.47 reads
   * every document of the collection for an aggregation, and filters after).
   */
  static Document runCommand(String command, Document query, Supplier<Document> run) {
    Document match = command.equalsIgnoreCase("aggregate") ? firstMatch(query.get("pipeline")) : null;
    if (match == null) return run.get();
    AGGREGATION_MATCH.set(match);
    try {
      return run.get();
    } finally {
      AGGREGATION_MATCH.remove();
    }
  }

  /**
   * The {@code $match} of the aggregation being run, once (a {@code $lookup} of another collection
   * scans as before), as a query: {@code {$query: match}}, so that a filter with a field named
   * "query" is not read as a query envelope. Null when there is none.
   */
  static Document takeAggregationMatch() {
    Document match = AGGREGATION_MATCH.get();
    if (match == null) return null;
    AGGREGATION_MATCH.remove();
    return new Document("$query", match);
  }

  private static Document firstMatch(Object pipeline) {
    if (!(pipeline instanceof List<?> stages) || stages.isEmpty()) return null;
    if (!(stages.get(0) instanceof Document first) || first.size() != 1) return null;
    return first.get("$match") instanceof Document match ? match : null;
  }
}
