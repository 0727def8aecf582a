package accord.local;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.concurrent.CountDownLatch;

/**
 * Serves the MongoDB wire protocol on a loopback port with mongo-java-server.
 *
 * <p>Arguments: {@code --port N} (required), {@code --host H} (default 127.0.0.1), {@code --file
 * PATH} (persist in an H2 MVStore file; without it, data lives in memory and is gone at exit),
 * {@code --backend B}: {@code accord} (the default: the project's index shapes answered from
 * in-memory indexes, IdLookupMemoryBackend, or IndexedH2Backend with {@code --file}), {@code
 * accord-scan} (without secondary indexes: for the memory backend the same without them, for the
 * file mongo-java-server's H2 backend unchanged), {@code memory} (mongo-java-server's own memory
 * backend, unchanged) or {@code h2} (with {@code --file}: its H2 backend, unchanged, as {@code
 * accord-scan} and {@code memory} are there); the unchanged ones are the equivalence tests'
 * references. {@code --cache-mb N} (default 64): the page cache of the file ({@code accord}
 * backend), the most heap the pages read from it hold. {@code --count-commands}: count the commands
 * answered, read with {@code {accordCommandCounts: 1}} (CountingBackend; the bench's).
 * Prints one line {@code listening on H:N} once it accepts connections, and shuts down cleanly
 * (H2 committed and closed) on SIGTERM/SIGINT.
 */
public final class LocalMongo {
  private LocalMongo() {}

  public static void main(String[] args) throws InterruptedException {
    String host = "127.0.0.1";
    Integer port = null;
    String file = null;
    String backendName = "accord";
    int cacheMb = 64;
    boolean countCommands = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String value = i + 1 < args.length ? args[i + 1] : null;
      if (arg.equals("--count-commands")) {
        countCommands = true;
        continue;
      }
      switch (arg) {
        case "--host" -> host = require(arg, value);
        case "--port" -> port = Integer.valueOf(require(arg, value));
        case "--file" -> file = require(arg, value);
        case "--backend" -> backendName = require(arg, value);
        case "--cache-mb" -> cacheMb = Integer.parseInt(require(arg, value));
        default -> fail("unknown argument " + arg);
      }
      i++;
    }
    if (port == null) fail("--port is required");

    MongoBackend backend =
        file != null
            ? switch (backendName) {
              case "accord" -> new IndexedH2Backend(file, cacheMb);
              case "accord-scan", "h2", "memory" -> new H2Backend(file); // unchanged: the file's "without indexes"
              default -> {
                fail("unknown --backend " + backendName + " with --file (accord, accord-scan, h2 or memory)");
                yield null;
              }
            }
            : switch (backendName) {
              case "accord" -> new IdLookupMemoryBackend(true);
              case "accord-scan" -> new IdLookupMemoryBackend(false);
              case "memory" -> new MemoryBackend();
              default -> {
                fail("unknown --backend " + backendName + " (accord, accord-scan or memory)");
                yield null;
              }
            };
    if (backend instanceof IndexedH2Backend) {
      System.out.print("H2 file " + file + ", page cache " + cacheMb + " MB\n");
      System.out.flush();
    }
    MongoServer server = new MongoServer(countCommands ? new CountingBackend(backend) : backend);
    server.bind(host, port);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.shutdown();
                  stopped.countDown();
                }));
    System.out.println("listening on " + host + ":" + port);
    System.out.flush();
    stopped.await();
  }

  private static String require(String arg, String value) {
    if (value == null) fail(arg + " needs a value");
    return value;
  }

  private static void fail(String message) {
    System.err.println("accord-local-mongo: " + message);
    System.exit(2);
  }
}
