package accord.local;

import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.MVMap;

/**
 * A unique index kept in an MVStore map from key to position, as mongo-java-server's H2UniqueIndex
 * (whose constructor is not public), over a map of IndexedH2Backend's own types
 * (StoredValues.KeyType and DocumentType).
 */
final class StoredUniqueIndex extends AbstractUniqueIndex<Object> {
  private final MVMap<KeyValue, Object> map;

  StoredUniqueIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.map = map;
  }

  @Override
  protected Object removeDocument(KeyValue keyValue) {
    return map.remove(keyValue);
  }

  @Override
  protected boolean putKeyPosition(KeyValue keyValue, Object position) {
    return map.putIfAbsent(keyValue, Missing.ofNullable(position)) == null;
  }

  @Override
  protected Iterable<Map.Entry<KeyValue, Object>> getIterable() {
    return map.entrySet();
  }

  @Override
  protected Object getPosition(KeyValue keyValue) {
    return map.get(keyValue);
  }

  @Override
  public long getCount() {
    return map.sizeAsLong();
  }

  @Override
  public boolean isEmpty() {
    return map.isEmpty();
  }

  @Override
  public long getDataSize() {
    return getCount();
  }
}
