package dev.packed4j.remote.internal;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/** Builds the gRPC server of a {@link ServerConfig}: its address, TLS, token check and message size. */
public final class Services {
  private Services() {}

  /** The server, not started. */
  public static Server build(ServerConfig config, BindableService... extraServices) {
    TransportLogs.shortenUnparsedMessages();
    InetSocketAddress address = new InetSocketAddress(config.host(), config.port());
    NettyServerBuilder builder = config.keystore() == null ? NettyServerBuilder.forAddress(address)
        : NettyServerBuilder.forAddress(address, tls(config));
    RegistryService registry = new RegistryService(config.maxMessageBytes() - (1L << 20), config.maxTensorBytes(),
        config.maxCalls(), config.maxCallsPerConnection(), config.streamIdleSeconds());
    builder.addTransportFilter(new CallerConnection.Marker());
    builder.maxInboundMessageSize(config.maxMessageBytes());
    builder.flowControlWindow(Connection.FLOW_CONTROL_WINDOW);
    builder.addService(guarded(Methods.withLargeMessages(registry.bindService(), registry), config));
    for (BindableService extra : extraServices) {
      builder.addService(guarded(extra.bindService(), config));
    }
    return builder.build();
  }

  /** The service behind the token check (when the server has a token) and the note of the caller's connection. */
  private static ServerServiceDefinition guarded(ServerServiceDefinition service, ServerConfig config) {
    ServerServiceDefinition noted = ServerInterceptors.intercept(service, new CallerConnection());
    // The interceptor given last runs first: the token is checked before anything else.
    return config.token() == null ? noted : ServerInterceptors.intercept(noted, new TokenCheck(config.token()));
  }

  private static ServerCredentials tls(ServerConfig config) {
    try (InputStream in = Files.newInputStream(config.keystore())) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, config.keystorePassword());
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, config.keystorePassword());
      return TlsServerCredentials.newBuilder().keyManager(keys.getKeyManagers()).build();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("--tls-keystore " + config.keystore() + ": cannot read the key and "
          + "certificate: " + e.getMessage(), e);
    }
  }
}
