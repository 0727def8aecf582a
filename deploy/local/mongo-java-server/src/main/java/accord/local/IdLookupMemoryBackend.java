package accord.local;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * mongo-java-server's memory backend, with {@code {_id: {$in: [k values]}}} in time linear in k.
 *
 * <p>mongo-java-server 1.47 answers such a query from the {@code _id} unique index, one lookup per
 * value, and then matches every document found against the whole query again, where {@code $in}
 * compares with the list linearly: k² comparisons (one {@code $in} of 1,000 {@code _id}s took
 * 112–626 ms). For a query the index answers exactly, the second match can only keep what the
 * index found, so these collections skip it: a query whose only field is {@code _id} and whose
 * condition is only {@code $in} of plain values (no {@code null}, document, array or regular
 * expression, whose matching differs from a key lookup). Every other query, including
 * {@code {_id: {$in: …}, other: x}}, runs unchanged. MongoDB itself seeks the index per value, so
 * Accord's code needs no workaround for the test database. docs/benchmarks.md, "Decisions", has
 * the measurement and the change proposed upstream.
 */
final class IdLookupMemoryBackend extends MemoryBackend {
  @Override
  public MemoryDatabase openOrCreateDatabase(String databaseName) {
    return new Database(databaseName, getCursorRegistry());
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
    Database(String name, CursorRegistry cursors) {
      super(name, cursors);
    }

    @Override
    protected MemoryCollection openOrCreateCollection(String name, CollectionOptions options) {
      return new IdLookupCollection(this, name, options, cursorRegistry);
    }
  }

  private static final class IdLookupCollection extends MemoryCollection {
    IdLookupCollection(MongoDatabase db, String name, CollectionOptions options, CursorRegistry cursors) {
      super(db, name, options, cursors);
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
