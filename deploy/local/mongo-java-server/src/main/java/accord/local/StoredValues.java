package accord.local;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

/**
 * How IndexedH2Backend writes values into its MVStore file: documents as BSON, and the unique
 * indexes' keys and positions in a small binary form, instead of the Java serialization that
 * mongo-java-server's H2 backend gets from H2's ObjectDataType (a new ObjectOutputStream or
 * ObjectInputStream for every value of every page written or read: the cost that held an import
 * on the file at ~150 events/s).
 *
 * <p>Every value starts with a tag byte. The tags here (0xE0–0xE3) are ones ObjectDataType never
 * writes (its tags are 0–119), so a value written by an earlier version (ObjectDataType's tag,
 * then its encoding) is still read, by ObjectDataType: a file of the earlier version opens as it
 * is, and its pages move to this form as they are rewritten. A value whose types BSON would not
 * give back exactly (anything outside {@link #bsonExact}) is still written by ObjectDataType, so
 * what is read back is always what was written.
 */
final class StoredValues {
  private StoredValues() {}

  /** A document as BSON (its length prefix, then its elements). */
  private static final byte TAG_DOCUMENT = (byte) 0xE0;

  /** mongo-java-server's Missing (the position of a document without {@code _id}). */
  private static final byte TAG_MISSING = (byte) 0xE1;

  /** One BSON value: its BSON type byte, then the value as in a document. */
  private static final byte TAG_VALUE = (byte) 0xE2;

  /** A unique index's key: the number of values, then each as a value here. */
  private static final byte TAG_KEY = (byte) 0xE3;

  /** Earlier files' values, and the rare values BSON would not give back exactly. */
  private static final ObjectDataType LEGACY = new ObjectDataType();

  /** True when BSON gives back the same value, of the same classes. */
  static boolean bsonExact(Object value) {
    if (value == null
        || value instanceof String
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Double
        || value instanceof Boolean
        || value instanceof Instant
        || value instanceof ObjectId) return true;
    if (value instanceof Document d) {
      for (Map.Entry<String, Object> e : d.entrySet()) {
        if (e.getKey().indexOf('\0') >= 0 || !bsonExact(e.getValue())) return false;
      }
      return true;
    }
    if (value instanceof ArrayList<?> list) { // what BSON reads an array as
      for (Object element : list) if (!bsonExact(element)) return false;
      return true;
    }
    return false;
  }

  static void write(WriteBuffer buff, Object value) {
    if (value instanceof Missing) {
      buff.put(TAG_MISSING);
    } else if (value instanceof Document d && bsonExact(d)) {
      ByteBuf bson = Unpooled.buffer(256);
      BsonEncoder.encodeDocument(d, bson);
      buff.put(TAG_DOCUMENT).put(bson.array(), bson.arrayOffset(), bson.writerIndex());
    } else if (value instanceof KeyValue key) {
      buff.put(TAG_KEY).putVarInt(key.size());
      for (Object v : key) write(buff, v);
    } else if (!(value instanceof Document) && bsonExact(value)) {
      ByteBuf bson = Unpooled.buffer(32);
      byte type = BsonEncoder.determineType(value);
      BsonEncoder.encodeValue(type, value, bson);
      buff.put(TAG_VALUE).put(type).put(bson.array(), bson.arrayOffset(), bson.writerIndex());
    } else {
      LEGACY.write(buff, value);
    }
  }

  static Object read(ByteBuffer buff) {
    byte tag = buff.get(buff.position());
    switch (tag) {
      case TAG_MISSING -> {
        buff.get();
        return Missing.getInstance();
      }
      case TAG_DOCUMENT -> {
        buff.get();
        int p = buff.position();
        // BSON's length prefix (little-endian), which counts itself
        int length = (buff.get(p) & 0xff) | (buff.get(p + 1) & 0xff) << 8 | (buff.get(p + 2) & 0xff) << 16 | (buff.get(p + 3) & 0xff) << 24;
        ByteBuf bson = wrap(buff, length);
        buff.position(p + length);
        return BsonDecoder.decodeBson(bson);
      }
      case TAG_VALUE -> {
        buff.get();
        byte type = buff.get();
        int p = buff.position();
        ByteBuf bson = wrap(buff, buff.remaining());
        Object value = BsonDecoder.decodeValue(type, bson);
        buff.position(p + bson.readerIndex());
        return value;
      }
      case TAG_KEY -> {
        buff.get();
        int n = org.h2.mvstore.DataUtils.readVarInt(buff);
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) values.add(read(buff));
        return new KeyValue(values);
      }
      default -> {
        return LEGACY.read(buff);
      }
    }
  }

  /** The next {@code length} bytes of {@code buff} (not consumed). */
  private static ByteBuf wrap(ByteBuffer buff, int length) {
    if (buff.hasArray()) return Unpooled.wrappedBuffer(buff.array(), buff.arrayOffset() + buff.position(), length);
    byte[] copy = new byte[length];
    buff.get(buff.position(), copy);
    return Unpooled.wrappedBuffer(copy);
  }

  /**
   * About the heap a value takes once read (what the page cache counts, so that its size in MB is
   * a bound on the heap it holds): the map entries, strings and boxes of a document.
   */
  static int memory(Object value) {
    if (value == null || value instanceof Missing || value instanceof Boolean) return 8;
    if (value instanceof String s) return 48 + s.length();
    if (value instanceof Integer || value instanceof Long || value instanceof Double) return 24;
    if (value instanceof Document d) {
      int m = 80;
      for (Map.Entry<String, Object> e : d.entrySet()) m += 48 + 48 + e.getKey().length() + memory(e.getValue());
      return m;
    }
    if (value instanceof List<?> list) {
      int m = 56;
      for (Object element : list) m += 8 + memory(element);
      return m;
    }
    if (value instanceof KeyValue key) {
      int m = 72;
      for (Object v : key) m += 8 + memory(v);
      return m;
    }
    return 64;
  }

  /**
   * A total order of unique index keys, without serializing them (ObjectDataType orders a
   * KeyValue, which is not Comparable, by its Java-serialized bytes: two serializations per
   * comparison, the import's busiest code). Two keys compare equal exactly when they hold equal
   * values of the same classes, as equal serializations do.
   */
  static int compareKeys(KeyValue a, KeyValue b) {
    Iterator<Object> i = a.iterator();
    Iterator<Object> j = b.iterator();
    while (i.hasNext() && j.hasNext()) {
      int c = compareValues(i.next(), j.next());
      if (c != 0) return c;
    }
    return Boolean.compare(i.hasNext(), j.hasNext());
  }

  private static int rank(Object v) {
    if (v == null) return 0;
    if (v instanceof Missing) return 1;
    if (v instanceof Double) return 2;
    if (v instanceof Long) return 3;
    if (v instanceof Integer) return 4;
    if (v instanceof String) return 5;
    if (v instanceof Boolean) return 6;
    if (v instanceof Instant) return 7;
    if (v instanceof ObjectId) return 8;
    if (v instanceof Document) return 9;
    if (v instanceof List) return 10;
    return 11;
  }

  @SuppressWarnings("unchecked")
  static int compareValues(Object a, Object b) {
    int ra = rank(a);
    int rb = rank(b);
    if (ra != rb) return Integer.compare(ra, rb);
    switch (ra) {
      case 0, 1 -> {
        return 0;
      }
      case 2 -> {
        return Double.compare((Double) a, (Double) b);
      }
      case 3 -> {
        return Long.compare((Long) a, (Long) b);
      }
      case 4 -> {
        return Integer.compare((Integer) a, (Integer) b);
      }
      case 5 -> {
        return ((String) a).compareTo((String) b);
      }
      case 6 -> {
        return Boolean.compare((Boolean) a, (Boolean) b);
      }
      case 7 -> {
        return ((Instant) a).compareTo((Instant) b);
      }
      case 8 -> {
        return ((ObjectId) a).compareTo((ObjectId) b);
      }
      case 9 -> {
        Iterator<Map.Entry<String, Object>> i = ((Document) a).entrySet().iterator();
        Iterator<Map.Entry<String, Object>> j = ((Document) b).entrySet().iterator();
        while (i.hasNext() && j.hasNext()) {
          Map.Entry<String, Object> x = i.next();
          Map.Entry<String, Object> y = j.next();
          int c = x.getKey().compareTo(y.getKey());
          if (c == 0) c = compareValues(x.getValue(), y.getValue());
          if (c != 0) return c;
        }
        return Boolean.compare(i.hasNext(), j.hasNext());
      }
      case 10 -> {
        Iterator<Object> i = ((List<Object>) a).iterator();
        Iterator<Object> j = ((List<Object>) b).iterator();
        while (i.hasNext() && j.hasNext()) {
          int c = compareValues(i.next(), j.next());
          if (c != 0) return c;
        }
        return Boolean.compare(i.hasNext(), j.hasNext());
      }
      default -> {
        int c = a.getClass().getName().compareTo(b.getClass().getName());
        return c != 0 ? c : LEGACY.compare(a, b); // ObjectDataType's own order (serialized bytes when not Comparable)
      }
    }
  }

  /** The documents of a collection's map (its keys stay ObjectDataType's: their order is the collection's natural order). */
  static final class DocumentType extends BasicDataType<Object> {
    static final DocumentType INSTANCE = new DocumentType();

    @Override
    public int getMemory(Object obj) {
      return memory(obj);
    }

    @Override
    public void write(WriteBuffer buff, Object obj) {
      StoredValues.write(buff, obj);
    }

    @Override
    public Object read(ByteBuffer buff) {
      return StoredValues.read(buff);
    }

    @Override
    public Object[] createStorage(int size) {
      return new Object[size];
    }
  }

  /** The keys of a unique index's map, ordered by {@link #compareKeys}. */
  static final class KeyType extends BasicDataType<KeyValue> {
    static final KeyType INSTANCE = new KeyType();

    @Override
    public int compare(KeyValue a, KeyValue b) {
      return compareKeys(a, b);
    }

    @Override
    public int getMemory(KeyValue obj) {
      return memory(obj);
    }

    @Override
    public void write(WriteBuffer buff, KeyValue obj) {
      StoredValues.write(buff, obj);
    }

    @Override
    public KeyValue read(ByteBuffer buff) {
      Object key = StoredValues.read(buff);
      return (KeyValue) key;
    }

    @Override
    public KeyValue[] createStorage(int size) {
      return new KeyValue[size];
    }
  }
}
