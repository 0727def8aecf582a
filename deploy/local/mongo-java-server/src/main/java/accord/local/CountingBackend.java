package accord.local;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Any backend, counting the commands it answers ({@code --count-commands}; the bench's, never
 * {@code npm start}'s): by {@code <command> <collection>} (the collection when the command's
 * first value is a string, as {@code find}, {@code insert}, {@code update} name it), with the
 * time the server spent answering each. The command {@code {accordCommandCounts: 1}} answers the
 * counts since the last time it was asked and starts new ones: {@code work} (count per key),
 * {@code serverMs} (milliseconds per key), {@code monitoring} (the drivers' handshakes and
 * heartbeats, not work a request causes); it is not counted itself.
 *
 * <p>Counting here, in the server, replaces a TCP proxy in front of it: that proxy ran in the
 * bench's own process beside its load generator, so every database round trip of the stack
 * under test crossed one more event loop, busy with the load (docs/benchmarks.md, "Counting
 * commands").
 */
final class CountingBackend implements MongoBackend {
  static final String COMMAND = "accordCommandCounts";
  private static final Set<String> MONITORING =
      Set.of("hello", "ismaster", "isMaster", "ping", "buildInfo", "buildinfo", "endSessions", "saslStart", "saslContinue", "getLastError");

  /** Per key: {count, nanoseconds}. Swapped whole when read, so a reading is one consistent window. */
  private final AtomicReference<Map<String, LongAdder[]>> counts = new AtomicReference<>(new ConcurrentHashMap<>());

  private final LongAdder monitoring = new LongAdder();
  private final MongoBackend backend;

  CountingBackend(MongoBackend backend) {
    this.backend = backend;
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    Document command = message.getDocument();
    String name = command.isEmpty() ? "" : command.keySet().iterator().next();
    if (name.equals(COMMAND)) return take();
    return count(name, command, () -> backend.handleMessage(message));
  }

  @Override
  public Document handleCommand(Channel channel, String database, String name, Document query) {
    if (name.equals(COMMAND)) return take();
    return count(name, query, () -> backend.handleCommand(channel, database, name, query));
  }

  private Document count(String name, Document command, Supplier<Document> answer) {
    if (MONITORING.contains(name)) {
      monitoring.increment();
      return answer.get();
    }
    Object first = command.get(name);
    String key = first instanceof String collection ? name + " " + collection : name;
    LongAdder[] adders = counts.get().computeIfAbsent(key, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
    adders[0].increment();
    long start = System.nanoTime();
    try {
      return answer.get();
    } finally {
      adders[1].add(System.nanoTime() - start);
    }
  }

  private Document take() {
    Map<String, LongAdder[]> window = counts.getAndSet(new ConcurrentHashMap<>());
    Document work = new Document();
    Document serverMs = new Document();
    window.forEach(
        (key, adders) -> {
          work.put(key, adders[0].sum());
          serverMs.put(key, adders[1].sum() / 1e6);
        });
    Document answer = new Document();
    answer.put("work", work);
    answer.put("serverMs", serverMs);
    answer.put("monitoring", monitoring.sumThenReset());
    answer.put("ok", 1.0);
    return answer;
  }

  @Override
  public QueryResult handleQuery(MongoQuery query) {
    return backend.handleQuery(query);
  }

  @Override
  public void handleClose(Channel channel) {
    backend.handleClose(channel);
  }

  @Override
  public void dropDatabase(String database) {
    backend.dropDatabase(database);
  }

  @Override
  public Collection<Document> getCurrentOperations(MongoQuery query) {
    return backend.getCurrentOperations(query);
  }

  @Override
  public Document getServerStatus() {
    return backend.getServerStatus();
  }

  @Override
  public void close() {
    backend.close();
  }

  @Override
  public void closeCursors(List<Long> cursorIds) {
    backend.closeCursors(cursorIds);
  }

  @Override
  public Clock getClock() {
    return backend.getClock();
  }

  @Override
  public void enableOplog() {
    backend.enableOplog();
  }

  @Override
  public void disableOplog() {
    backend.disableOplog();
  }

  @Override
  public MongoDatabase resolveDatabase(String database) {
    return backend.resolveDatabase(database);
  }

  @Override
  public MongoBackend version(MongoVersion version) {
    backend.version(version);
    return this;
  }
}
