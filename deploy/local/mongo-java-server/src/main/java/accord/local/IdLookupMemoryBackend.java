package accord.local;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.NoopOplog;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * mongo-java-server's memory backend, answering the project's index shapes from an index.
 *
 * <p>mongo-java-server 1.47 keeps only unique indexes (a secondary index is accepted and ignored)
 * and answers every other query by matching each document of the collection, and an aggregation
 * always so: a history search or an export page cost time in proportion to all the events stored.
 * These collections keep every declared secondary index in memory (OrderedIndex, SecondaryIndexes)
 * and answer a query, a count and the first {@code $match} of an aggregation from the best of them
 * (QueryPlanner; IndexedH2Backend does the same over the H2 file backend): the documents an index finds are matched against the whole query again, in the
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
      if (collection instanceof IndexedCollection c) c.indexes.undeclare(indexName);
      super.dropIndex(collection, indexName);
    }

    @Override
    public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver, Oplog oplog) {
      if (!secondaryIndexes) return super.handleCommand(channel, command, query, resolver, oplog);
      return SecondaryIndexes.runCommand(command, query, () -> super.handleCommand(channel, command, query, resolver, oplog));
    }
  }

  static final class IndexedCollection extends MemoryCollection {
    final SecondaryIndexes<Integer> indexes;

    IndexedCollection(MongoDatabase db, String name, CollectionOptions options, CursorRegistry cursors) {
      super(db, name, options, cursors);
      indexes =
          new SecondaryIndexes<>(
              new SecondaryIndexes.Host<>() {
                @Override
                public Document document(Integer position) {
                  return getDocument(position);
                }

                @Override
                public boolean matches(Document document, Document query) {
                  return documentMatchesQuery(document, query);
                }

                @Override
                public List<Index<Integer>> uniqueIndexes() {
                  return getIndexes();
                }

                @Override
                public Stream<DocumentWithPosition<Integer>> all() {
                  return streamAllDocumentsWithPosition();
                }
              },
              (a, b) -> Integer.compare((Integer) a, (Integer) b)); // the list's order
    }

    /** Declares an index and builds it from the documents now (under the collection's lock, as every write). */
    synchronized void declare(String name, List<IndexKey> keys, boolean sparse) {
      indexes.declare(name, keys, sparse);
      indexes.build();
    }

    // --- keeping the indexes exact ---

    @Override
    protected Integer addDocumentInternal(Document document) {
      SharedStrings.share(document);
      Integer position = super.addDocumentInternal(document);
      indexes.added(document, position);
      return position;
    }

    @Override
    protected void removeDocument(Integer position) {
      indexes.removed(getDocument(position), position);
      super.removeDocument(position);
    }

    @Override
    protected void handleUpdate(Integer position, Document oldDocument, Document newDocument) {
      SharedStrings.share(newDocument); // the stored document, changed in place by the update
      indexes.updated(oldDocument, newDocument, position);
      super.handleUpdate(position, oldDocument, newDocument);
    }

    // --- answering from them ---

    /** An aggregation's documents: those its first {@code $match} selects, in natural order, when an index narrows it. */
    @Override
    public Stream<Document> queryAllAsStream() {
      Document match = SecondaryIndexes.takeAggregationMatch();
      if (match == null) return super.queryAllAsStream();
      return StreamSupport.stream(handleQuery(new QueryParameters(match, 0, 0)).spliterator(), false);
    }

    /** A distinct of every document's key, from a sparse index of that key when there is one. */
    @Override
    public synchronized Document handleDistinct(Document query) {
      Document answer = indexes.distinct(query);
      return answer != null ? answer : super.handleDistinct(query);
    }

    /** Counts under the collection's lock, as queries are (the indexes are not read while a write moves them). */
    @Override
    public synchronized int count(Document query, int skip, int limit) {
      return super.count(query, skip, limit);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize, Document fieldSelector) {
      if (indexes.consulted(query, orderBy)) {
        Iterable<Integer> positions = indexes.positions(query, orderBy, skip, limit);
        if (positions != null) return matchDocuments(query, positions, orderBy, skip, limit, batchSize, fieldSelector);
      }
      return super.queryDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
    }

    /** The documents an index found: kept whole (an empty query matches all) when the index answered the query exactly. */
    @Override
    protected QueryResult matchDocuments(
        Document query, Iterable<Integer> positions, Document orderBy, int skip, int limit, int batchSize, Document fieldSelector) {
      Document rest = answeredByIdIndex(query) ? new Document() : query;
      return super.matchDocuments(rest, positions, orderBy, skip, limit, batchSize, fieldSelector);
    }

    /**
     * An update of {@code {_id: {$in: [k values]}}} (the outbox relay's and the log sequencer's,
     * after each batch), also with other conditions beside it (the outbox's retry), in time linear
     * in k. mongo-java-server finds the documents (from the {@code _id} index alone, the query's
     * second match skipped, as above; with other conditions, in a scan), then asks each document's
     * array position against the whole selector, whose {@code $in} compares with the list
     * linearly: k² comparisons. Here the documents are those the {@code _id} index finds (other
     * conditions: those of them matching the rest of the selector, in natural order, the scan's),
     * and each is updated through mongo-java-server's own update, by the selector with its
     * {@code _id} condition made that document's {@code _id}: an {@code _id} is never an array, so
     * that condition gives no array position either way (the rest gives the one it gives there,
     * and a positional {@code $} is refused or applied alike), and the counts, the documents and
     * the change stream's record (one, of the whole selector and the ids changed) are the ones its
     * own loop gives. A replacement (refused in a multi update), a single-document update and an
     * update finding nothing (an upsert then inserts) go the unchanged way.
     */
    @Override
    public synchronized Document updateDocuments(
        Document selector, Document updateQuery, ArrayFilters arrayFilters, boolean isMulti, boolean isUpsert, Oplog oplog) {
      String idField = getIdField();
      List<Object> ids = isMulti && "_id".equals(idField) && onlyOperators(updateQuery) ? idInMatches(selector) : null;
      if (ids == null || ids.isEmpty()) return super.updateDocuments(selector, updateQuery, arrayFilters, isMulti, isUpsert, oplog);
      List<Object> updatedIds = new ArrayList<>();
      for (Object id : ids) {
        Document one = new Document();
        for (Map.Entry<String, Object> e : selector.entrySet()) one.put(e.getKey(), e.getKey().equals(idField) ? id : e.getValue());
        Document result = super.updateDocuments(one, updateQuery, arrayFilters, false, false, NoopOplog.get());
        if (((Number) result.get("nModified")).intValue() > 0) updatedIds.add(id);
      }
      oplog.handleUpdate(getFullName(), selector, updateQuery, updatedIds);
      Document result = new Document();
      result.put("n", Integer.valueOf(ids.size()));
      result.put("nModified", Integer.valueOf(updatedIds.size()));
      return result;
    }

    /**
     * The {@code _id}s of the documents {@code selector} matches, in the order mongo-java-server
     * finds them, when its {@code _id} condition is an {@code $in} the index answers exactly (see
     * the class); null otherwise.
     */
    private List<Object> idInMatches(Document selector) {
      if (!(selector.get("_id") instanceof Document condition) || !answeredByIdIndex(new Document("_id", condition))) return null;
      List<Object> ids = new ArrayList<>();
      if (selector.size() == 1) {
        for (Document document : queryDocuments(selector, null, 0, 0, 0, null)) ids.add(document.get("_id"));
        return ids;
      }
      Index<Integer> primary = null;
      for (Index<Integer> index : getIndexes()) if (index.getKeys().size() == 1 && index.getKeys().get(0).getKey().equals("_id")) primary = index;
      if (primary == null) return null;
      Document rest = new Document();
      for (Map.Entry<String, Object> e : selector.entrySet()) if (!e.getKey().equals("_id")) rest.put(e.getKey(), e.getValue());
      TreeMap<Integer, Object> found = new TreeMap<>(); // natural order, a scan's
      for (Integer position : primary.getPositions(new Document("_id", condition))) {
        Document document = getDocument(position);
        if (documentMatchesQuery(document, rest)) found.put(position, document.get("_id"));
      }
      ids.addAll(found.values());
      return ids;
    }

    private static boolean onlyOperators(Document updateQuery) {
      for (String key : updateQuery.keySet()) if (!key.startsWith("$")) return false;
      return true;
    }
  }
}
