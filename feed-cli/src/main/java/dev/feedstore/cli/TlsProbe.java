package dev.feedstore.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Finds out whether a server that refused a plain-text connection speaks TLS, so that feedctl can
 * say so instead of gRPC's "Network closed for unknown reason". It starts a TLS handshake and
 * watches for the server's certificate: a server that presents one speaks TLS. The certificate is
 * never trusted (the handshake is always broken off there) and nothing is sent after it.
 */
final class TlsProbe {
  private TlsProbe() {}

  /** Whether the server at {@code address} answers a TLS handshake with a certificate; false when unsure. */
  static boolean speaksTls(ServerAddress address, Duration timeout) {
    AtomicBoolean presented = new AtomicBoolean();
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new Witness(presented)}, null);
      String host = address.host().startsWith("[") ? address.host().substring(1, address.host().length() - 1)
          : address.host();
      try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
        socket.connect(new InetSocketAddress(host, address.port()), (int) timeout.toMillis());
        socket.setSoTimeout((int) timeout.toMillis());
        SSLParameters parameters = socket.getSSLParameters();
        // gRPC servers negotiate HTTP/2 with ALPN and may end a handshake that does not offer it.
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      // Expected: the witness breaks the handshake off; a plain-text server breaks it off sooner.
    }
    return presented.get();
  }

  /** Notes that the server presented a certificate, and refuses it. */
  private record Witness(AtomicBoolean presented) implements X509TrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      presented.set(true);
      throw new CertificateException("only finding out whether the server speaks TLS");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("not a server");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
