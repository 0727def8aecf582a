package accord.local;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.EmptyIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * mongo-java-server's H2 file backend (what {@code npm start} keeps its data in), answering the
 * project's index shapes from in-memory indexes, as IdLookupMemoryBackend does for the memory
 * backend and with the same code (SecondaryIndexes, OrderedIndex, QueryPlanner).
 *
 * <p>The data stays where mongo-java-server 1.47 keeps it (an MVStore file: a map per collection
 * from {@code _id} to document, the unique indexes, and the declared indexes' descriptions in
 * {@code system.indexes}), except in the form of its values: documents are written as BSON and
 * the unique indexes' maps in a binary form of their own, ordered without Java serialization
 * (StoredValues; a file of an earlier version still opens, its unique indexes built again once);
 * the secondary indexes are held in memory only, never written: when the
 * file is opened, each collection's declared indexes are built together in one pass over its
 * stored documents, and from then on kept on every insert, update, upsert and delete. A position
 * here is a document's key in the collection's map (its {@code _id}), and the natural order (what
 * a full scan visits first, so which of equal documents a sort keeps first) is that map's key
 * order, which the indexes use to break ties. The unchanged H2 backend ({@code --backend h2}) is
 * the reference of the equivalence tests.
 */
final class IndexedH2Backend extends H2Backend {
  /** mongo-java-server's names of a collection's maps (H2Database's DATABASES_PREFIX and META_PREFIX). */
  private static final String DATA_PREFIX = "databases.";

  private static final String META_PREFIX = "meta.";

  /** Documents (and unique indexes' positions) as StoredValues writes them. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final org.h2.mvstore.type.DataType<Document> DOCUMENTS = (org.h2.mvstore.type.DataType) StoredValues.DocumentType.INSTANCE;

  /** The name of a unique index's map of the earlier versions (H2Database's): ordered by Java-serialized keys. */
  private static final String OLD_UNIQUE_INDEX = "._index_";

  /** The name of a unique index's map here: keys in StoredValues' form and order. */
  private static final String UNIQUE_INDEX = "._unique_";

  /**
   * Opens the file with a page cache of {@code cacheMb} MB: the heap the pages read from the file
   * hold at most (StoredValues counts a value's heap, not its size on disk).
   */
  IndexedH2Backend(String fileName, int cacheMb) {
    super(new MVStore.Builder().fileName(fileName).cacheSize(cacheMb).open());
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    return new Database(databaseName, getMvStore(), getCursorRegistry());
  }

  /*
   * An inner class: H2Database's constructor opens the collections and their indexes already (the
   * overrides below run before this class's own fields are assigned), and the enclosing backend,
   * assigned before the superclass constructor runs, holds the MVStore they need.
   */
  private final class Database extends H2Database {
    /** False while the superclass constructor opens the stored collections and indexes. */
    private final boolean opened;

    /**
     * The stored collections with declared indexes, met while the superclass constructor opens
     * them (no initializer: one would run after that constructor and drop what it met).
     */
    private Set<IndexedCollection> opening;

    Database(String name, MVStore store, CursorRegistry cursors) {
      super(name, store, cursors);
      // the declared indexes of every stored collection, each collection read once
      if (opening != null)
        for (IndexedCollection c : opening) {
          long started = System.nanoTime();
          c.buildIndexes();
          long ms = (System.nanoTime() - started) / 1_000_000;
          if (c.count() == 0) continue; // a line for each collection that had documents to read
          // one write: the line arrives whole in npm start's log
          System.out.print("indexes of " + c.getFullName() + " built from " + c.count() + " documents in " + ms + " ms: " + String.join(", ", c.indexes.names()) + "\n");
          System.out.flush();
        }
      opening = null;
      opened = true;
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
      String fullName = getFullCollectionNamespace(collectionName);
      MVStore store = getMvStore();
      MVMap<Object, Document> dataMap =
          store.openMap(DATA_PREFIX + fullName, new MVMap.Builder<Object, Document>().valueType(DOCUMENTS));
      MVMap<String, Object> metaMap = store.openMap(META_PREFIX + fullName);
      return new IndexedCollection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
    }

    /**
     * A unique index in a map of StoredValues' types, under a name of its own: the map of an
     * earlier version (ordered by Java-serialized keys, which the new order cannot search) is
     * dropped, and its index built again from the documents (mongo-java-server fills an empty
     * index when it adds it) the first time this version opens the file. A map of this version
     * next to an earlier version's means an earlier version wrote the file since: built again too.
     */
    @Override
    protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      MVStore store = getMvStore();
      String prefix = getFullCollectionNamespace(collectionName);
      String old = prefix + OLD_UNIQUE_INDEX + indexName;
      String name = prefix + UNIQUE_INDEX + indexName;
      if (store.hasMap(old)) {
        store.removeMap(old);
        if (store.hasMap(name)) store.removeMap(name);
      }
      MVMap<KeyValue, Object> map =
          store.openMap(name, new MVMap.Builder<KeyValue, Object>().keyType(StoredValues.KeyType.INSTANCE).valueType(StoredValues.DocumentType.INSTANCE));
      return new StoredUniqueIndex(map, indexName, keys, sparse);
    }

    @Override
    protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      Index<Object> declared = new Declared(indexName, keys);
      if (resolveOrCreateCollection(collectionName) instanceof IndexedCollection c) {
        c.indexes.declare(indexName, keys, sparse);
        if (opened) c.buildIndexes();
        else (opening != null ? opening : (opening = new LinkedHashSet<>())).add(c); // at start-up: in the constructor
      }
      return declared;
    }

    @Override
    protected void dropIndex(MongoCollection<Object> collection, String indexName) {
      if (collection instanceof IndexedCollection c) c.indexes.undeclare(indexName);
      super.dropIndex(collection, indexName);
      String name = getFullCollectionNamespace(collection.getCollectionName()) + UNIQUE_INDEX + indexName;
      if (getMvStore().hasMap(name)) getMvStore().removeMap(name);
    }

    @Override
    public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver, Oplog oplog) {
      return SecondaryIndexes.runCommand(command, query, () -> super.handleCommand(channel, command, query, resolver, oplog));
    }
  }

  /**
   * mongo-java-server's placeholder of a secondary index (an EmptyIndex, which holds nothing),
   * telling the collection there is nothing to fill in: its addIndex reads every stored document
   * twice for an empty index (checkAdd, add: both no-ops here), so opening the file read
   * consent_events sixteen times (109 s for 158,000 events, before any index of ours was built).
   */
  private static final class Declared extends EmptyIndex<Object> {
    Declared(String name, List<IndexKey> keys) {
      super(name, keys);
    }

    @Override
    public boolean isEmpty() {
      return false;
    }
  }

  static final class IndexedCollection extends H2Collection {
    final SecondaryIndexes<Object> indexes;

    IndexedCollection(
        MongoDatabase db,
        String name,
        CollectionOptions options,
        MVMap<Object, Document> dataMap,
        MVMap<String, Object> metaMap,
        CursorRegistry cursors) {
      super(db, name, options, dataMap, metaMap, cursors);
      indexes =
          new SecondaryIndexes<>(
              new SecondaryIndexes.Host<>() {
                @Override
                public Document document(Object position) {
                  return getDocument(position);
                }

                @Override
                public boolean matches(Document document, Document query) {
                  return documentMatchesQuery(document, query);
                }

                @Override
                public List<Index<Object>> uniqueIndexes() {
                  return getIndexes();
                }

                @Override
                public Stream<DocumentWithPosition<Object>> all() {
                  return streamAllDocumentsWithPosition();
                }
              },
              dataMap.getKeyType()::compare); // the map's order: what a full scan visits
    }

    /** Builds the declared indexes not built yet (under the collection's lock, as every write). */
    synchronized void buildIndexes() {
      indexes.build();
    }

    // --- documents handed out as copies ---

    /**
     * A document read from the map, as a copy of its own: mongo-java-server updates the document it
     * read in place (AbstractMongoCollection's applyUpdate copies the new one into it), and the
     * object in the map may be in a page the MVStore is writing at that moment (a
     * ConcurrentModificationException that closes the store, seen in 100,000-event imports once the
     * indexes' pages made each write longer) or in the page cache, read by others. A shallow copy
     * is enough: an update works on a deep copy of the nested values (its updateDocument).
     */
    @Override
    protected Document getDocument(Object position) {
      Document stored = super.getDocument(position);
      return stored == null ? null : stored.clone();
    }

    @Override
    protected Stream<DocumentWithPosition<Object>> streamAllDocumentsWithPosition() {
      return super.streamAllDocumentsWithPosition().map(d -> new DocumentWithPosition<>(d.getDocument().clone(), d.getPosition()));
    }

    // --- keeping the indexes exact ---

    @Override
    protected Object addDocumentInternal(Document document) {
      Object position = super.addDocumentInternal(document);
      indexes.added(document, position);
      return position;
    }

    @Override
    protected void removeDocument(Object position) {
      indexes.removed(getDocument(position), position);
      super.removeDocument(position);
    }

    @Override
    protected void handleUpdate(Object position, Document oldDocument, Document newDocument) {
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
        Iterable<Object> positions = indexes.positions(query, orderBy, skip, limit);
        if (positions != null) return matchDocuments(query, positions, orderBy, skip, limit, batchSize, fieldSelector);
      }
      return super.queryDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
    }

    /** The documents an index found: kept whole (an empty query matches all) when the index answered the query exactly. */
    @Override
    protected QueryResult matchDocuments(
        Document query, Iterable<Object> positions, Document orderBy, int skip, int limit, int batchSize, Document fieldSelector) {
      Document rest = IdLookupMemoryBackend.answeredByIdIndex(query) ? new Document() : query;
      return super.matchDocuments(rest, positions, orderBy, skip, limit, batchSize, fieldSelector);
    }
  }
}
