package io.sediment.om.tls;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * The TLS key material of a server or a client, read from PEM files: an identity (a certificate
 * chain, leaf first, and its unencrypted private key in PKCS#8, PKCS#1 or SEC1 form), and the
 * certificates it trusts (a CA bundle). Either may be absent: a server has an identity and trusts
 * client certificates signed by the CA only when one is given (mutual TLS); a client trusts the CA
 * given, else the JDK's default trust store, and shows an identity only when one is given.
 *
 * <p>Read once at {@link #load}; a change to the files takes a restart. Immutable and thread-safe.
 */
public final class TlsMaterial {

  private static final char[] NO_PASSWORD = new char[0];

  private final X509Certificate[] chain;
  private final PrivateKey key;
  private final List<X509Certificate> trusted;

  private TlsMaterial(X509Certificate[] chain, PrivateKey key, List<X509Certificate> trusted) {
    this.chain = chain;
    this.key = key;
    this.trusted = trusted;
  }

  /**
   * Reads the files; {@code cert} and {@code key} go together (both or neither), {@code ca} may
   * be null.
   *
   * @throws IOException naming the file that cannot be read or holds no usable PEM certificate
   *     or key, or a key that does not match its certificate
   * @throws IllegalArgumentException if only one of {@code cert} and {@code key} is given
   */
  public static TlsMaterial load(Path cert, Path key, Path ca) throws IOException {
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException("A TLS certificate and its private key go together");
    }
    X509Certificate[] chain = null;
    PrivateKey privateKey = null;
    if (cert != null) {
      List<X509Certificate> c = certificates(cert);
      chain = c.toArray(new X509Certificate[0]);
      privateKey = privateKey(key);
      checkPair(chain[0], privateKey, cert, key);
    }
    List<X509Certificate> trusted = ca == null ? List.of() : certificates(ca);
    return new TlsMaterial(chain, privateKey, trusted);
  }

  /** Whether there is a certificate and key to show to the peer. */
  public boolean hasIdentity() {
    return chain != null;
  }

  /** Whether a CA was given (else a client trusts the JDK's defaults, a server no client). */
  public boolean hasTrustedCa() {
    return !trusted.isEmpty();
  }

  /** The identity's key manager; null without an identity. */
  public X509KeyManager keyManager() {
    if (chain == null) {
      return null;
    }
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("identity", key, NO_PASSWORD, chain);
      KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      f.init(ks, NO_PASSWORD);
      for (KeyManager m : f.getKeyManagers()) {
        if (m instanceof X509KeyManager x) {
          return x;
        }
      }
      throw new IllegalStateException("The JDK made no X.509 key manager");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("Cannot hold the TLS key in memory: " + e.getMessage(), e);
    }
  }

  /** The trust manager: the CA's certificates, or the JDK's defaults without a CA. */
  public X509TrustManager trustManager() {
    try {
      KeyStore ks = null;
      if (!trusted.isEmpty()) {
        ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        for (int i = 0; i < trusted.size(); i++) {
          ks.setCertificateEntry("ca-" + i, trusted.get(i));
        }
      }
      TrustManagerFactory f = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      f.init(ks);
      for (TrustManager m : f.getTrustManagers()) {
        if (m instanceof X509TrustManager x) {
          return x;
        }
      }
      throw new IllegalStateException("The JDK made no X.509 trust manager");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("Cannot hold the TLS CA in memory: " + e.getMessage(), e);
    }
  }

  /**
   * A gRPC server's credentials: the identity, and with a CA, client certificates required and
   * verified against it (mutual TLS).
   *
   * @throws IllegalStateException without an identity
   */
  public ServerCredentials serverCredentials() {
    requireIdentity();
    TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder().keyManager(keyManager());
    if (hasTrustedCa()) {
      b.trustManager(trustManager()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return b.build();
  }

  /**
   * As {@link #serverCredentials()}, except that with a CA a client certificate is only verified
   * when one is shown, not required ({@code requireClientCertificates} false): for a server that
   * also accepts bearer tokens and refuses callers without either itself.
   *
   * @throws IllegalStateException without an identity
   */
  public ServerCredentials serverCredentials(boolean requireClientCertificates) {
    requireIdentity();
    TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder().keyManager(keyManager());
    if (hasTrustedCa()) {
      b.trustManager(trustManager()).clientAuth(requireClientCertificates
          ? TlsServerCredentials.ClientAuth.REQUIRE : TlsServerCredentials.ClientAuth.OPTIONAL);
    }
    return b.build();
  }

  /** A gRPC channel's credentials: trusts the CA (or the JDK's defaults), shows the identity if any. */
  public ChannelCredentials channelCredentials() {
    TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder()
        .trustManager(trustManager());
    if (hasIdentity()) {
      b.keyManager(keyManager());
    }
    return b.build();
  }

  /**
   * An SSL context for an HTTPS server (Recon): the identity; client certificates are not asked
   * for.
   *
   * @throws IllegalStateException without an identity
   */
  public SSLContext serverSslContext() {
    requireIdentity();
    try {
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(new KeyManager[] {keyManager()}, new TrustManager[] {trustManager()}, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot make a TLS context: " + e.getMessage(), e);
    }
  }

  private void requireIdentity() {
    if (chain == null) {
      throw new IllegalStateException("A TLS server needs a certificate and its private key");
    }
  }

  private static List<X509Certificate> certificates(Path file) throws IOException {
    List<X509Certificate> out = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    try (Reader r = Files.newBufferedReader(file); PEMParser pem = new PEMParser(r)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof X509CertificateHolder h) {
          out.add(converter.getCertificate(h));
        }
      }
    } catch (CertificateException | RuntimeException e) {
      throw new IOException("Cannot read the certificates in " + file + ": " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IOException("No PEM certificate (-----BEGIN CERTIFICATE-----) in " + file);
    }
    return List.copyOf(out);
  }

  private static PrivateKey privateKey(Path file) throws IOException {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (Reader r = Files.newBufferedReader(file); PEMParser pem = new PEMParser(r)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
        if (o instanceof PEMKeyPair pair) {
          return converter.getKeyPair(pair).getPrivate();
        }
      }
    } catch (RuntimeException e) {
      throw new IOException("Cannot read the private key in " + file + ": " + e.getMessage(), e);
    }
    throw new IOException("No unencrypted PEM private key (-----BEGIN PRIVATE KEY----- or "
        + "-----BEGIN RSA/EC PRIVATE KEY-----) in " + file);
  }

  /** Refuses a key that is not the certificate's: the failure would otherwise show at handshake. */
  private static void checkPair(X509Certificate leaf, PrivateKey key, Path cert, Path keyFile)
      throws IOException {
    String certAlgorithm = leaf.getPublicKey().getAlgorithm();
    boolean sameFamily = certAlgorithm.equals(key.getAlgorithm())
        || (certAlgorithm.startsWith("EC") && key.getAlgorithm().startsWith("EC"));
    if (!sameFamily) {
      throw new IOException("The private key in " + keyFile + " (" + key.getAlgorithm()
          + ") does not belong to the certificate in " + cert + " (" + certAlgorithm + ")");
    }
    try {
      String alg = certAlgorithm.startsWith("EC") ? "SHA256withECDSA" : "SHA256with" + certAlgorithm;
      java.security.Signature s = java.security.Signature.getInstance(alg);
      byte[] probe = "sediment".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      s.initSign(key);
      s.update(probe);
      byte[] sig = s.sign();
      s.initVerify(leaf.getPublicKey());
      s.update(probe);
      if (!s.verify(sig)) {
        throw new IOException("The private key in " + keyFile
            + " does not belong to the certificate in " + cert);
      }
    } catch (GeneralSecurityException e) {
      // An algorithm this check does not know: the handshake decides.
    }
  }

  @Override
  public String toString() {
    return "TlsMaterial[identity=" + (chain == null ? "none"
        : chain[0].getSubjectX500Principal().getName()) + ", trusted CAs=" + trusted.size() + "]";
  }
}
