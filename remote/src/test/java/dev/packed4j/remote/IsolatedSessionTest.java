package dev.packed4j.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import dev.packed4j.samples.calculator.Calculator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Isolated sessions: the plugin in a child JVM, so that a crash in it (remote.Crash writes through a null pointer)
 * ends the child and not this JVM. Every pending and later call then fails with SessionLostError, within its
 * deadline; with restartOnLoss the next call gets a new child.
 */
class IsolatedSessionTest {
  private static final Path PLUGIN = Path.of(RemoteSessionTest.PLUGIN);

  @Test
  void aDefaultMethodCallsItsUntypedFunctionWhereTheInterfaceIsBound() {
    // Packed4j.invokeGlobal, as packed4j generate's methods for set_body functions call it: in the child for the
    // session's binding (it used to run in this process, or fail with a KeyError when no library was loaded here).
    long here = ProcessHandle.current().pid();
    try (Session isolated = Packed4j.isolated(PLUGIN)) {
      long child = (Long) isolated.bind(RemoteFunctions.class).processId();
      assertTrue(child != here, "the child's pid, not this JVM's: " + child);
      assertEquals(child, isolated.global("remote.ProcessId").invoke());
    }
    Packed4j.loadLibrary(PLUGIN);
    assertEquals(here, Packed4j.bind(RemoteFunctions.class).processId());
  }

  @Test
  void aCrashingPluginEndsOnlyTheChildAndEveryCallSaysSo() throws Exception {
    try (Session isolated = Packed4j.isolated(PLUGIN)) {
      RemoteFunctions functions = isolated.bind(RemoteFunctions.class);
      assertEquals(3L, functions.add(1, 2));
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Long>> pending = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          pending.add(pool.submit(() -> functions.sleep(20_000)));
        }
        Thread.sleep(300); // the sleeps are running in the child
        long start = System.nanoTime();
        Packed4jException crash = assertThrows(Packed4jException.class, () -> functions.crash(1));
        assertEquals(Session.SESSION_LOST, crash.kind());
        assertTrue(crash.getMessage().contains("RemoteFunctions.crash") && crash.getMessage().contains("pid"),
            crash.getMessage());
        assertTrue(crash.getMessage().contains("crash report"), "the message names the JVM's crash report: "
            + crash.getMessage());
        deleteCrashReport(crash.getMessage());
        for (Future<Long> call : pending) {
          Exception error = assertThrows(Exception.class, () -> call.get(10, TimeUnit.SECONDS));
          Packed4jException lost = (Packed4jException) error.getCause();
          assertEquals(Session.SESSION_LOST, lost.kind());
        }
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "the pending calls ended at the crash");
      } finally {
        pool.shutdownNow();
      }
      Packed4jException later = assertThrows(Packed4jException.class, () -> functions.add(1, 2));
      assertEquals(Session.SESSION_LOST, later.kind());
      assertTrue(later.getMessage().contains("RemoteFunctions.add"), later.getMessage());
    }
    assertEquals(3L, 1L + 2L, "this JVM lives on");
  }

  @Test
  void killingTheServerDuringAThousandConcurrentCallsEndsEachWithItsResultOrSessionLost() throws Exception {
    Duration deadline = Duration.ofSeconds(10);
    try (Session isolated = Packed4j.isolated(PLUGIN, SessionOptions.defaults().withDeadline(deadline))) {
      RemoteFunctions functions = isolated.bind(RemoteFunctions.class);
      functions.add(0, 0); // warm
      int calls = 1000;
      AtomicInteger results = new AtomicInteger();
      AtomicInteger lost = new AtomicInteger();
      ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
      CountDownLatch started = new CountDownLatch(calls / 2);
      CountDownLatch done = new CountDownLatch(calls);
      long start = System.nanoTime();
      try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < calls; i++) {
          long value = i;
          threads.submit(() -> {
            started.countDown();
            try {
              // Some calls answer at once, some take long enough to be in flight at the kill.
              long answer = value % 2 == 0 ? functions.add(value, 1) : functions.sleep(200 + value % 300);
              if (answer != (value % 2 == 0 ? value + 1 : 200 + value % 300)) {
                unexpected.add(new AssertionError("call " + value + " answered " + answer));
              }
              results.incrementAndGet();
            } catch (Packed4jException e) {
              if (e.kind().equals(Session.SESSION_LOST)) {
                lost.incrementAndGet();
              } else {
                unexpected.add(e);
              }
            } catch (Throwable e) {
              unexpected.add(e);
            } finally {
              done.countDown();
            }
          });
        }
        assertTrue(started.await(10, TimeUnit.SECONDS));
        Thread.sleep(100);
        ProcessHandle child = ProcessHandle.current().children()
            .filter(process -> process.info().commandLine().orElse("").contains("Packed4jServer"))
            .findFirst().orElseThrow();
        child.destroyForcibly();
        assertTrue(done.await(deadline.toSeconds() + 5, TimeUnit.SECONDS), "calls still pending: " + done.getCount());
      }
      long took = (System.nanoTime() - start) / 1_000_000;
      assertTrue(unexpected.isEmpty(), "unexpected outcomes: " + unexpected);
      assertEquals(calls, results.get() + lost.get());
      assertTrue(lost.get() > 0, "the kill came after every call had answered (" + results.get() + " results)");
      assertTrue(took < deadline.toMillis() + 5000, "took " + took + " ms");
      Packed4jException after = assertThrows(Packed4jException.class, () -> functions.add(1, 1));
      assertEquals(Session.SESSION_LOST, after.kind());
      assertTrue(after.getMessage().contains("SIGKILL"), after.getMessage());
    }
  }

  @Test
  void closingWithCallsInFlightStopsTheChildAtOnce() throws Exception {
    Session isolated = Packed4j.isolated(PLUGIN);
    RemoteFunctions functions = isolated.bind(RemoteFunctions.class);
    long child = (Long) functions.processId();
    Path crashDirectory = crashDirectoryOf(child);
    RemoteSessionTest.assertClosesAtOnce(isolated, functions);
    // Stopped, not left to finish the sleeps (it used to exit 0 once they were done); nothing of it is left.
    Optional<ProcessHandle> process = ProcessHandle.of(child);
    if (process.isPresent()) {
      process.get().onExit().get(2, TimeUnit.SECONDS);
    }
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().endsWith("-" + child) && thread.getName().startsWith("packed4j-isolated-")) {
        thread.join(2000);
        assertFalse(thread.isAlive(), thread.getName() + " outlived the child");
      }
    }
    assertFalse(Files.exists(crashDirectory), "the child's crash directory outlived a close without a crash");
  }

  /** The directory an isolated session's child writes its crash report in: its -XX:ErrorFile's. */
  private static Path crashDirectoryOf(long child) {
    String prefix = "-XX:ErrorFile=";
    return ProcessHandle.of(child).flatMap(process -> process.info().arguments()).stream()
        .flatMap(java.util.Arrays::stream).filter(argument -> argument.startsWith(prefix))
        .map(argument -> Path.of(argument.substring(prefix.length())).getParent()).findFirst()
        .orElseThrow(() -> new AssertionError("no -XX:ErrorFile on the child's command line"));
  }

  @Test
  void crashReportsGoWhereTheOptionsSayAndStayThere() throws Exception {
    Path reports = Files.createTempDirectory("crash-reports").resolve("made-by-the-session");
    try {
      try (Session isolated = Packed4j.isolated(PLUGIN, SessionOptions.defaults().withCrashReportDirectory(reports))) {
        RemoteFunctions functions = isolated.bind(RemoteFunctions.class);
        assertEquals(reports, crashDirectoryOf((Long) functions.processId()));
        Packed4jException crash = assertThrows(Packed4jException.class, () -> functions.crash(1));
        assertTrue(crash.getMessage().contains("crash report, which names the native frame that crashed: "
            + reports.resolve("hs_err_pid")), crash.getMessage());
      }
      try (var listed = Files.list(reports)) {
        assertEquals(1, listed.filter(file -> file.getFileName().toString().startsWith("hs_err_pid")).count(),
            "the report stays for the user after the session closed");
      }
      try (Session clean = Packed4j.isolated(PLUGIN, SessionOptions.defaults().withCrashReportDirectory(reports))) {
        assertEquals(3L, clean.bind(RemoteFunctions.class).add(1, 2));
      }
      assertTrue(Files.isDirectory(reports), "the user's directory is never removed");
    } finally {
      try (var listed = Files.list(reports)) {
        for (Path file : listed.toList()) {
          Files.delete(file);
        }
      }
      Files.delete(reports);
      Files.delete(reports.getParent());
    }
    // A directory that cannot be made (here, under a file) fails the open, naming it, before any child starts.
    Path file = Files.createTempFile("not-a-directory", ".txt");
    try {
      Path under = file.resolve("reports");
      Packed4jException refused = assertThrows(Packed4jException.class,
          () -> Packed4j.isolated(PLUGIN, SessionOptions.defaults().withCrashReportDirectory(under)));
      assertEquals(Session.SESSION_LOST, refused.kind());
      assertTrue(refused.getMessage().contains("Packed4j.isolated(" + PLUGIN + "): cannot create the directory for "
          + "the child's crash report: " + under + ": Not a directory"), refused.getMessage());
    } finally {
      Files.delete(file);
    }
    assertThrows(NullPointerException.class, () -> SessionOptions.defaults().withCrashReportDirectory(null));
    assertEquals(Optional.empty(), SessionOptions.defaults().crashReportDirectory());
    // -XX:ErrorFile reads %p as the pid: such a directory would hold no report the error could name.
    IllegalArgumentException percent = assertThrows(IllegalArgumentException.class,
        () -> SessionOptions.defaults().withCrashReportDirectory(Path.of("logs/100%p")));
    assertTrue(percent.getMessage().contains("holds a '%'"), percent.getMessage());
  }

  @Test
  void restartOnLossStartsANewChildAtTheNextCall() throws IOException {
    try (Session isolated = Packed4j.isolated(PLUGIN, SessionOptions.defaults().withRestartOnLoss(true))) {
      RemoteFunctions functions = isolated.bind(RemoteFunctions.class);
      PointRef before = functions.makePoint(1, 2, "before");
      Packed4jException crash = assertThrows(Packed4jException.class, () -> functions.crash(1));
      assertEquals(Session.SESSION_LOST, crash.kind());
      deleteCrashReport(crash.getMessage());
      assertEquals(5L, functions.add(2, 3), "a new child answers");
      Packed4jException gone = assertThrows(Packed4jException.class, before::x);
      assertEquals(Session.SESSION_LOST, gone.kind(), "objects of the ended child stay lost");
      assertEquals("remote.Point{lost}", before.toString(), "no call, no exception: it says it is lost");
      try (PointRef after = functions.makePoint(3, 4, "after")) {
        assertEquals("after", after.label());
      }
    }
  }

  @Test
  void oneChildHostsSeveralLibrariesAndARestartLoadsThemAll() throws IOException {
    Path calculator = Packed4j.libraryFile("calculator"); // from the class path, as Packed4j.isolated(String) finds it
    try (Session isolated = Packed4j.isolated(List.of(PLUGIN, calculator),
        SessionOptions.defaults().withRestartOnLoss(true))) {
      RemoteFunctions functions = isolated.bind(RemoteFunctions.class);
      Calculator calc = isolated.bind(Calculator.class);
      assertEquals(3L, functions.add(1, 2));
      assertEquals(42L, calc.multiply(6, 7));
      assertEquals(functions.processId(), isolated.global("remote.ProcessId").invoke(), "one child");
      assertTrue(isolated.list().containsAll(List.of("remote.Add", "calculator.MyAdd")), isolated.list().toString());

      Packed4jException crash = assertThrows(Packed4jException.class, () -> functions.crash(1));
      assertEquals(Session.SESSION_LOST, crash.kind());
      deleteCrashReport(crash.getMessage());
      assertEquals(42L, calc.multiply(6, 7), "the new child loaded the second library too");
      assertEquals(5L, functions.add(2, 3));
    }
  }

  @Test
  void aListOfLibrariesIsCheckedAndALibraryThatDoesNotLoadIsNamed() {
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> Packed4j.isolated(List.of()));
    assertEquals("Packed4j.isolated(List<Path>) takes at least one library, got an empty list", empty.getMessage());
    NullPointerException hole = assertThrows(NullPointerException.class,
        () -> Packed4j.isolated(java.util.Arrays.asList(PLUGIN, null)));
    assertEquals("libraries[1]", hole.getMessage());

    Path missing = Path.of("/nonexistent/libnothing.so");
    Packed4jException local = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(missing));
    Packed4jException second = assertThrows(Packed4jException.class,
        () -> Packed4j.isolated(List.of(PLUGIN, missing)));
    assertEquals("LoadError", second.kind());
    assertTrue(second.getMessage().contains("Packed4j.isolated(" + PLUGIN + ", " + missing + "): the child "
        + "packed4j-server ended before it listened (exit status"), second.getMessage());
    assertTrue(second.getMessage().contains(local.nativeMessage()), second.getMessage());
  }

  @Test
  void libraryFileNamesTheFileLoadLibraryLoadsOrSaysWhatIsMissing() {
    Path calculator = Packed4j.libraryFile("calculator");
    assertTrue(calculator.isAbsolute() && Files.isRegularFile(calculator), calculator.toString());
    assertEquals("libcalculator.so", calculator.getFileName().toString());
    assertEquals(calculator, Packed4j.libraryFile("calculator"), "the same file each time");

    Packed4jException absent = assertThrows(Packed4jException.class, () -> Packed4j.libraryFile("nothing"));
    assertEquals("LoadError", absent.kind());
    assertTrue(absent.getMessage().contains("no native library 'nothing' on the class path"), absent.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Packed4j.libraryFile("../calculator"));
  }

  @Test
  void aLibraryTheChildCannotLoadIsTheLoadErrorItWouldBeLocally() {
    Path missing = Path.of("/nonexistent/libnothing.so");
    Packed4jException local = assertThrows(Packed4jException.class, () -> Packed4j.loadLibrary(missing));
    Packed4jException isolated = assertThrows(Packed4jException.class, () -> Packed4j.isolated(missing));
    assertEquals("LoadError", isolated.kind());
    assertTrue(isolated.getMessage().contains(local.nativeMessage()), isolated.getMessage());
    assertFalse(isolated.getMessage().contains("Exception in thread"), isolated.getMessage());
    assertTrue(isolated.getMessage().contains("Packed4j.isolated(" + missing + "): the child packed4j-server ended "
        + "before it listened (exit status"), isolated.getMessage());
  }

  @Test
  void aPluginThatCallsTerminateIsReportedWithTheChildsLastWords() {
    try (Session isolated = Packed4j.isolated(PLUGIN)) {
      Packed4jException aborted = assertThrows(Packed4jException.class,
          () -> isolated.bind(RemoteFunctions.class).crash(6));
      assertEquals(Session.SESSION_LOST, aborted.kind());
      assertTrue(aborted.getMessage().contains("exit status 134, SIGABRT: the process aborted: native code called"
          + " abort() or std::terminate"), aborted.getMessage());
      // No crash report: what the child wrote last says why.
      assertTrue(aborted.getMessage().contains("the last lines of its standard error: terminate called without an"
          + " active exception"), aborted.getMessage());
    }
  }

  @Test
  void openingIsBoundedByTheOpenTimeoutNotByTheDeadlineOfCalls() {
    // A child JVM takes a second or more to start: a deadline that suits calls must not make opening fail.
    try (Session hasty = Packed4j.isolated(PLUGIN, SessionOptions.defaults().withDeadline(Duration.ofMillis(50)))) {
      try {
        assertEquals(3L, hasty.bind(RemoteFunctions.class).add(1, 2));
      } catch (Packed4jException coldChild) { // a call may outlive 50 ms in a JVM just started; opening may not
        assertEquals(Session.TIMEOUT, coldChild.kind(), coldChild.getMessage());
      }
    }
    Packed4jException late = assertThrows(Packed4jException.class, () -> Packed4j.isolated(PLUGIN,
        SessionOptions.defaults().withOpenTimeout(Duration.ofMillis(1))));
    assertEquals(Session.TIMEOUT, late.kind(), late.getMessage());
    assertTrue(late.getMessage().contains("within PT0.001S (SessionOptions.withOpenTimeout)"), late.getMessage());
  }

  @Test
  void anUnclosedSessionNobodyRefersToEndsItsChild() throws Exception {
    long child = openAndDrop();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < until) {
      System.gc();
      Thread.sleep(100);
    }
    assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false),
        "the child of a collected session still runs: " + child);
  }

  /** Opens a session, calls once, and lets go of it unclosed; the child's pid. */
  private static long openAndDrop() {
    Session dropped = Packed4j.isolated(PLUGIN);
    return (Long) dropped.bind(RemoteFunctions.class).processId();
  }

  @Test
  void aChildWhoseParentEndedWithoutClosingRemovesItsTemporaryDirectory() throws Exception {
    // A JVM that opens a session and halts: its child sees its standard input end and exits, and removes the
    // directory kept for its crash report, which the parent could not.
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
    for (String property : List.of("packed4j.library.path", "packed4j.cache.dir")) {
      if (System.getProperty(property) != null) {
        command.add("-D" + property + "=" + System.getProperty(property));
      }
    }
    command.addAll(List.of(LeftOpen.class.getName(), PLUGIN.toString()));
    Path log = Files.createTempFile("left-open", ".log");
    Process parent = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ended = parent.waitFor(60, TimeUnit.SECONDS); // a file, not a pipe: a hung parent cannot hang the test
    String output = Files.readString(log);
    Files.delete(log);
    if (!ended) {
      parent.destroyForcibly();
    }
    assertTrue(ended, "the parent JVM did not end:\n" + output);
    Matcher directory = Pattern.compile("crash directory: (\\S+)").matcher(output);
    assertTrue(directory.find(), output);
    Path kept = Path.of(directory.group(1));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (Files.exists(kept) && System.nanoTime() < until) {
      Thread.sleep(100);
    }
    assertFalse(Files.exists(kept), kept + " outlived both JVMs:\n" + output);
  }

  /** Opens an isolated session, prints its child's crash directory, and halts without closing it. */
  static final class LeftOpen {
    public static void main(String[] args) {
      Session session = Packed4j.isolated(Path.of(args[0]));
      session.bind(RemoteFunctions.class).add(1, 2);
      String prefix = "-Dpacked4j.isolated.crashDirectory=";
      ProcessHandle.current().children().flatMap(child -> child.info().arguments().stream()
          .flatMap(java.util.Arrays::stream)).filter(argument -> argument.startsWith(prefix))
          .forEach(argument -> System.out.println("crash directory: " + argument.substring(prefix.length())));
      System.out.flush();
      Runtime.getRuntime().halt(0);
    }
  }

  /** The crash is this test's doing: its report, in a temporary directory of its own, goes. */
  private static void deleteCrashReport(String message) throws IOException {
    Matcher report = Pattern.compile("(/\\S+/hs_err_pid\\d+\\.log)").matcher(message);
    if (report.find()) {
      Path file = Path.of(report.group(1));
      Files.deleteIfExists(file);
      Files.deleteIfExists(file.getParent());
    }
  }
}
