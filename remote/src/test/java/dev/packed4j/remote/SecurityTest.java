package dev.packed4j.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.packed4j.remote.internal.ServerConfig;
import dev.packed4j.runtime.Packed4j;
import dev.packed4j.runtime.Packed4jException;
import dev.packed4j.runtime.Session;
import dev.packed4j.runtime.SessionOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared token and TLS, as docs/guide.md's "Sessions" section sets them up: a server started with
 * {@code --token-file} refuses a session without the token or with another one, before any call runs; a server
 * started with {@code --tls-keystore} serves a client that trusts its certificate, and a plaintext client cannot
 * talk to it.
 */
class SecurityTest {
  @TempDir
  Path directory;

  @Test
  void aServerOpenBeyondLoopbackWithoutATokenIsWarnedAbout() {
    Map<String, String> noToken = Map.of();
    assertEquals("packed4j-server: warning: listening on 0.0.0.0 without a token (--token-file or PACKED4J_TOKEN):"
        + " any client that reaches the port can call the hosted libraries",
        ServerConfig.parse(List.of("--port", "0", "--host", "0.0.0.0", "x.so"), noToken).openServerWarning());
    assertNull(ServerConfig.parse(List.of("--port", "0", "x.so"), noToken).openServerWarning(), "loopback only");
    assertNull(ServerConfig.parse(List.of("--port", "0", "--host", "0.0.0.0", "x.so"),
        Map.of("PACKED4J_TOKEN", "t0ken")).openServerWarning(), "a token");
  }

  @Test
  void aServerWithATokenRefusesSessionsWithoutIt() throws IOException {
    Path tokenFile = Files.writeString(directory.resolve("token"), "s3cret-token\n");
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", "--token-file", tokenFile.toString(),
        RemoteSessionTest.PLUGIN))) {
      Packed4jException none = assertThrows(Packed4jException.class, () -> Packed4j.connect(server.address()));
      assertEquals(Session.AUTHENTICATION, none.kind());
      assertTrue(none.getMessage().contains("requires a token"), none.getMessage());
      Packed4jException wrong = assertThrows(Packed4jException.class, () -> Packed4j.connect(server.address(),
          SessionOptions.defaults().withToken("guess")));
      assertEquals(Session.AUTHENTICATION, wrong.kind());
      assertTrue(wrong.getMessage().contains("not this server's"), wrong.getMessage());
      try (Session session = Packed4j.connect(server.address(),
          SessionOptions.defaults().withToken("s3cret-token"))) {
        assertEquals(3L, session.bind(RemoteFunctions.class).add(1, 2));
      }
    }
  }

  @Test
  void aTokenIsPrintableAsciiOnBothSides() throws IOException {
    // A header carries printable ASCII only: a token outside it never reached the server (gRPC dropped the header
    // with a log line), and the server then said that no token was sent, or refused the right one.
    IllegalArgumentException accented = assertThrows(IllegalArgumentException.class,
        () -> SessionOptions.defaults().withToken("tökén"));
    assertEquals("SessionOptions.withToken: the token holds U+00F6 at index 1; a token is printable ASCII (' ' to '~'),"
        + " which the header that carries it can hold", accented.getMessage());
    IllegalArgumentException newline = assertThrows(IllegalArgumentException.class,
        () -> SessionOptions.defaults().withToken("s3cret-token\n"));
    assertTrue(newline.getMessage().contains("strip the whitespace around a token read from a file"),
        newline.getMessage());
    IllegalArgumentException space = assertThrows(IllegalArgumentException.class,
        () -> SessionOptions.defaults().withToken(" s3cret"));
    assertTrue(space.getMessage().contains("starts or ends with a space"), space.getMessage());
    assertEquals("a token with spaces", SessionOptions.defaults().withToken("a token with spaces").token()
        .orElseThrow());
    Path accentedFile = Files.writeString(directory.resolve("token"), "tökén\n");
    IllegalArgumentException server = assertThrows(IllegalArgumentException.class, () -> Packed4jServer.start(
        List.of("--port", "0", "--token-file", accentedFile.toString(), RemoteSessionTest.PLUGIN)));
    assertTrue(server.getMessage().startsWith("the token (--token-file or PACKED4J_TOKEN) is one no client can send:"
        + " the token holds U+00F6 at index 1"), server.getMessage());
  }

  @Test
  void aTrustedCertificateFileWithoutACertificateIsNamed() throws IOException {
    // It used to be a SessionLostError whose hint was to fix the shade plugin's configuration.
    Path notPem = Files.writeString(directory.resolve("token.pem"), "s3cret-token\n");
    Path empty = Files.writeString(directory.resolve("empty.pem"), "");
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN))) {
      IllegalArgumentException garbage = assertThrows(IllegalArgumentException.class, () -> Packed4j.connect(
          server.address(), SessionOptions.defaults().withTrustedCertificate(notPem)));
      assertTrue(garbage.getMessage().startsWith("SessionOptions.withTrustedCertificate: " + notPem + " is not a PEM"
          + " file of X.509 certificates"), garbage.getMessage());
      IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> Packed4j.connect(
          server.address(), SessionOptions.defaults().withTrustedCertificate(empty)));
      assertTrue(none.getMessage().startsWith("SessionOptions.withTrustedCertificate: " + empty + " holds no"
          + " certificate"), none.getMessage());
    }
  }

  @Test
  void aTlsServerServesClientsThatTrustItsCertificate() throws Exception {
    Path keystore = directory.resolve("server.p12");
    Path certificate = directory.resolve("server.pem");
    Path password = Files.writeString(directory.resolve("keystore-password"), "changeit");
    // The commands of docs/guide.md ("TLS"): a self-signed certificate for localhost, and its PEM for clients.
    keytool("-genkeypair", "-alias", "packed4j-server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "365",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
        "-keystore", keystore.toString(), "-storepass", "changeit");
    keytool("-exportcert", "-rfc", "-alias", "packed4j-server", "-keystore", keystore.toString(),
        "-storepass", "changeit", "-file", certificate.toString());
    try (Packed4jServer server = Packed4jServer.start(List.of("--port", "0", "--tls-keystore", keystore.toString(),
        "--tls-keystore-password-file", password.toString(), RemoteSessionTest.PLUGIN))) {
      String target = "localhost:" + server.port();
      try (Session session = Packed4j.connect(target,
          SessionOptions.defaults().withTrustedCertificate(certificate))) {
        assertEquals("hello, tls", session.bind(RemoteFunctions.class).greet("tls"));
      }
      Packed4jException plaintext = assertThrows(Packed4jException.class, () -> Packed4j.connect(target));
      assertConnectFailure(plaintext, target, "withTrustedCertificate");
      // A certificate the client does not trust: another self-signed one.
      Path otherStore = directory.resolve("other.p12");
      Path other = directory.resolve("other.pem");
      keytool("-genkeypair", "-alias", "other", "-keyalg", "RSA", "-keysize", "2048", "-validity", "365",
          "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
          "-keystore", otherStore.toString(), "-storepass", "changeit");
      keytool("-exportcert", "-rfc", "-alias", "other", "-keystore", otherStore.toString(), "-storepass", "changeit",
          "-file", other.toString());
      Packed4jException untrusted = assertThrows(Packed4jException.class,
          () -> Packed4j.connect(target, SessionOptions.defaults().withTrustedCertificate(other)));
      assertConnectFailure(untrusted, target, "certificate");
    }
    // A TLS client and a plaintext server.
    try (Packed4jServer plain = Packed4jServer.start(List.of("--port", "0", RemoteSessionTest.PLUGIN))) {
      String target = "localhost:" + plain.port();
      Packed4jException tlsToPlain = assertThrows(Packed4jException.class,
          () -> Packed4j.connect(target, SessionOptions.defaults().withTrustedCertificate(certificate)));
      assertConnectFailure(tlsToPlain, target, "TLS");
    }
  }

  /** A connect failure: a SessionLostError naming the address and the cause, not a gRPC exception. */
  static void assertConnectFailure(Packed4jException error, String target, String cause) {
    assertEquals(Session.SESSION_LOST, error.kind(), error.getMessage());
    assertTrue(error.getMessage().contains("cannot connect to packed4j-server at " + target), error.getMessage());
    assertTrue(error.getMessage().contains(cause), error.getMessage());
    assertFalse(error.getMessage().contains("StatusRuntimeException"), error.getMessage());
  }

  @Test
  void aWrongCommandLineNamesTheArgument() {
    IllegalArgumentException noPort = assertThrows(IllegalArgumentException.class,
        () -> Packed4jServer.start(List.of(RemoteSessionTest.PLUGIN)));
    assertTrue(noPort.getMessage().contains("--port"), noPort.getMessage());
    IllegalArgumentException badPort = assertThrows(IllegalArgumentException.class,
        () -> Packed4jServer.start(List.of("--port", "seven", RemoteSessionTest.PLUGIN)));
    assertTrue(badPort.getMessage().contains("'seven'"), badPort.getMessage());
    IllegalArgumentException noLibrary = assertThrows(IllegalArgumentException.class,
        () -> Packed4jServer.start(List.of("--port", "0")));
    assertTrue(noLibrary.getMessage().contains("no library"), noLibrary.getMessage());
    IllegalArgumentException noPassword = assertThrows(IllegalArgumentException.class,
        () -> Packed4jServer.start(List.of("--port", "0", "--tls-keystore", "x.p12", RemoteSessionTest.PLUGIN)));
    assertFalse(noPassword.getMessage().isEmpty());
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), "keytool " + String.join(" ", args) + ": " + output);
  }
}
