package accord.local;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * mongo-java-server's memory backend, answering the project's index shapes from an index.
 *
 * <p>mongo-java-server 1.47 keeps only unique indexes (a secondary index is accepted and ignored)
 * and answers every other query by matching each document of the collection, and an aggregation
 * always so: a history search or an export page cost time in proportion to all the events stored.
 * These collections keep every declared secondary index in memory (OrderedIndex) and answer a
 * query, a count and the first {@code $match} of an aggregation from the best of them
 * (QueryPlanner): the documents an index finds are matched against the whole query again, in the
 * collection's natural order, then sorted, skipped, limited and projected by mongo-java-server's
 * own code, so the answer is the one a full scan gives, documents and order (ties included). A
 * query sorted on {@code _id} with a limit whose equality keys an index leads with, followed by
 * {@code _id}, walks that index in the sort's direction and stops after the limit. Queries no index
 * narrows scan as before. Turned off with {@code secondaryIndexes = false} (the equivalence tests'
 * reference, beside the stock MemoryBackend).
 *
 * <p>And {@code {_id: {$in: [k values]}}} in time linear in k: mongo-java-server 1.47 answers such
 * a query from the {@code _id} unique index, one lookup per value, and then matches every document
 * found against the whole query again, where {@code $in} compares with the list linearly: k²
 * comparisons (one {@code $in} of 1,000 {@code _id}s took 112–626 ms). For a query the index
 * answers exactly, the second match can only keep what the index found, so these collections skip
 * it: a query whose only field is {@code _id} and whose condition is only {@code $in} of plain
 * values (no {@code null}, document, array or regular expression, whose matching differs from a
 * key lookup). docs/benchmarks.md, "Decisions", has the measurements.
 */
final class IdLookupMemoryBackend extends MemoryBackend {
  private final boolean secondaryIndexes;

  IdLookupMemoryBackend(boolean secondaryIndexes) {
    this.secondaryIndexes = secondaryIndexes;
  }

  IdLookupMemoryBackend() {
    this(true);
  }

  @Override
  public MemoryDatabase openOrCreateDatabase(String databaseName) {
    return new Database(databaseName, getCursorRegistry(), secondaryIndexes);
  }

  /** Whether the {@code _id} unique index alone answers {@code query} exactly (see the class). */
  static boolean answeredByIdIndex(Document query) {
    if (query.size() != 1 || !(query.get("_id") instanceof Document condition)) return false;
    if (condition.size() != 1 || !(condition.get("$in") instanceof Collection<?> values)) return false;
    for (Object v : values) {
      if (v == null
          || v instanceof Map<?, ?>
          || v instanceof Collection<?>
          || v instanceof Pattern
          || BsonRegularExpression.isRegularExpression(v)) return false;
    }
    return true;
  }

  /** The first stage of the aggregation being run on this thread when it is a {@code $match} (see IndexedCollection.queryAllAsStream). */
  private static final ThreadLocal<Document> AGGREGATION_MATCH = new ThreadLocal<>();

  private static final class Database extends MemoryDatabase {
    private final boolean secondaryIndexes;

    Database(String name, CursorRegistry cursors, boolean secondaryIndexes) {
      super(name, cursors);
      this.secondaryIndexes = secondaryIndexes;
    }

    @Override
    protected MemoryCollection openOrCreateCollection(String name, CollectionOptions options) {
      return new IndexedCollection(this, name, options, cursorRegistry);
    }

    @Override
    protected Index<Integer> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      Index<Integer> declared = super.openOrCreateSecondaryIndex(collectionName, indexName, keys, sparse);
      if (secondaryIndexes && resolveOrCreateCollection(collectionName) instanceof IndexedCollection c) c.declare(indexName, keys, sparse);
      return declared;
    }

    @Override
    protected void dropIndex(MongoCollection<Integer> collection, String indexName) {
      if (collection instanceof IndexedCollection c) c.undeclare(indexName);
      super.dropIndex(collection, indexName);
    }

    @Override
    public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver, Oplog oplog) {
      Document match = secondaryIndexes && command.equalsIgnoreCase("aggregate") ? firstMatch(query.get("pipeline")) : null;
      if (match == null) return super.handleCommand(channel, command, query, resolver, oplog);
      AGGREGATION_MATCH.set(match);
      try {
        return super.handleCommand(channel, command, query, resolver, oplog);
      } finally {
        AGGREGATION_MATCH.remove();
      }
    }

    private static Document firstMatch(Object pipeline) {
      if (!(pipeline instanceof List<?> stages) || stages.isEmpty()) return null;
      if (!(stages.get(0) instanceof Document first) || first.size() != 1) return null;
      return first.get("$match") instanceof Document match ? match : null;
    }
  }

  static final class IndexedCollection extends MemoryCollection {
    private final List<OrderedIndex> indexes = new CopyOnWriteArrayList<>();

    IndexedCollection(MongoDatabase db, String name, CollectionOptions options, CursorRegistry cursors) {
      super(db, name, options, cursors);
    }

    synchronized void declare(String name, List<IndexKey> keys, boolean sparse) {
      if (indexes.stream().anyMatch(i -> i.name.equals(name))) return;
      OrderedIndex index = new OrderedIndex(name, keys, sparse);
      streamAllDocumentsWithPosition().forEach(d -> index.add(d.getDocument(), d.getPosition()));
      indexes.add(index);
    }

    synchronized void undeclare(String name) {
      indexes.removeIf(i -> i.name.equals(name));
    }

    // --- keeping the indexes exact ---

    @Override
    protected Integer addDocumentInternal(Document document) {
      Integer position = super.addDocumentInternal(document);
      for (OrderedIndex index : indexes) index.add(document, position);
      return position;
    }

    @Override
    protected void removeDocument(Integer position) {
      Document document = getDocument(position);
      if (document != null) for (OrderedIndex index : indexes) index.remove(document, position);
      super.removeDocument(position);
    }

    @Override
    protected void handleUpdate(Integer position, Document oldDocument, Document newDocument) {
      for (OrderedIndex index : indexes) index.update(oldDocument, newDocument, position);
      super.handleUpdate(position, oldDocument, newDocument);
    }

    // --- answering from them ---

    /** An aggregation's documents: those its first {@code $match} selects, in natural order, when an index narrows it. */
    @Override
    public Stream<Document> queryAllAsStream() {
      Document match = AGGREGATION_MATCH.get();
      if (match == null) return super.queryAllAsStream();
      AGGREGATION_MATCH.remove(); // once: a $lookup of another collection scans as before
      // as {$query: …}: a filter with a field named "query" is not read as a query envelope
      return StreamSupport.stream(handleQuery(new QueryParameters(new Document("$query", match), 0, 0)).spliterator(), false);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize, Document fieldSelector) {
      if (!indexes.isEmpty() && query != null && !query.isEmpty() && !natural(orderBy)) {
        Iterable<Integer> positions = positions(query, orderBy, skip, limit);
        if (positions != null) return matchDocuments(query, positions, orderBy, skip, limit, batchSize, fieldSelector);
      }
      return super.queryDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
    }

    private static boolean natural(Document orderBy) {
      return orderBy != null && orderBy.keySet().stream().anyMatch(k -> k.startsWith("$"));
    }

    /** The documents an index finds for {@code query}: a superset of its matches, or null when no index narrows it. */
    Iterable<Integer> positions(Document query, Document orderBy, int skip, int limit) {
      List<Map<String, QueryPlanner.Condition>> branches = QueryPlanner.branches(query);
      // sorted on _id alone, with a limit: walk one index in that order, stopping after the limit
      if (branches.size() == 1 && limit > 0 && orderBy != null && orderBy.size() == 1 && orderBy.get("_id") instanceof Number dir) {
        List<Integer> walked = walk(query, branches.get(0), dir.doubleValue() >= 0, skip + limit);
        if (walked != null) return walked;
      }
      TreeSet<Integer> found = new TreeSet<>(); // natural order: the memory backend's positions
      for (Map<String, QueryPlanner.Condition> branch : branches) {
        if (!collect(branch, found)) return null;
      }
      return found;
    }

    /** Adds the positions one branch's best lookup finds; false when no index narrows the branch. */
    private boolean collect(Map<String, QueryPlanner.Condition> branch, TreeSet<Integer> into) {
      QueryPlanner.Condition id = branch.get("_id");
      if (id != null && id.equals != null) {
        Index<Integer> primary = primaryIndex();
        Document lookup = new Document("_id", new Document("$in", id.equals));
        if (primary != null && primary.canHandle(lookup)) {
          for (Integer p : primary.getPositions(lookup)) into.add(p);
          return true;
        }
      }
      QueryPlanner.Lookup best = null;
      for (OrderedIndex index : indexes) {
        QueryPlanner.Lookup l = QueryPlanner.lookup(index, branch);
        if (l != null && (best == null || score(l) > score(best))) best = l;
      }
      if (best == null) return false;
      for (Object[] prefix : best.prefixes()) for (OrderedIndex.Entry e : best.index().scan(prefix, best.range())) into.add(e.position());
      return true;
    }

    private static int score(QueryPlanner.Lookup l) {
      return l.equalKeys() * 2 + (l.range() != null ? 1 : 0);
    }

    private Index<Integer> primaryIndex() {
      for (Index<Integer> index : getIndexes()) if (index.getKeys().size() == 1 && index.getKeys().get(0).getKey().equals("_id")) return index;
      return null;
    }

    /**
     * The first {@code wanted} matches of {@code query} in {@code _id} order, from an index whose
     * equality keys (one value each) are followed by {@code _id}; null when there is none.
     */
    private List<Integer> walk(Document query, Map<String, QueryPlanner.Condition> branch, boolean idAscending, int wanted) {
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
      NavigableSet<OrderedIndex.Entry> range = index.scan(best.prefixes().get(0), best.range());
      Iterator<OrderedIndex.Entry> it = forward ? range.iterator() : range.descendingIterator();
      List<Integer> out = new ArrayList<>();
      while (it.hasNext() && out.size() < wanted) {
        int position = it.next().position();
        if (documentMatchesQuery(getDocument(position), query)) out.add(position);
      }
      return out;
    }

    /** The documents an index found: kept whole (an empty query matches all) when the index answered the query exactly. */
    @Override
    protected QueryResult matchDocuments(
        Document query, Iterable<Integer> positions, Document orderBy, int skip, int limit, int batchSize, Document fieldSelector) {
      Document rest = answeredByIdIndex(query) ? new Document() : query;
      return super.matchDocuments(rest, positions, orderBy, skip, limit, batchSize, fieldSelector);
    }
  }
}
