package io.sediment.om.tls;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import io.grpc.util.AdvancedTlsX509TrustManager.Verification;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManager;
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
 * <p>Read at {@link #load}; {@link #reload} reads the same files again and, when they are usable,
 * puts their certificate, key and CA in place of the old ones. Every credential and context made
 * from one material shares its {@linkplain #keyManager key manager} and {@linkplain #trustManager
 * CA trust manager}, so a reload reaches every server and channel built from it: handshakes after
 * the reload use the new files, connections already open keep what they negotiated. Whether an
 * identity or a CA is present is fixed at {@link #load}. Thread-safe.
 */
public final class TlsMaterial {

  private final Path certFile;
  private final Path keyFile;
  private final Path caFile;
  /** Null without an identity. */
  private final AdvancedTlsX509KeyManager keyManager;
  /** Null without a CA (a client then trusts the JDK's defaults). */
  private final AdvancedTlsX509TrustManager caTrust;
  /** Guarded by this: what the managers hold now. */
  private Contents current;

  /** The contents of the files as last put in place, parsed. */
  private record Contents(byte[] digest, X509Certificate[] chain, PrivateKey key,
      X509Certificate[] trusted) {}

  private TlsMaterial(Path certFile, Path keyFile, Path caFile, Contents read) {
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.caFile = caFile;
    this.keyManager = read.chain == null ? null : new AdvancedTlsX509KeyManager();
    try {
      this.caTrust = read.trusted.length == 0 ? null : AdvancedTlsX509TrustManager.newBuilder()
          .setVerification(Verification.CERTIFICATE_AND_HOST_NAME_VERIFICATION).build();
    } catch (CertificateException e) {
      throw new IllegalStateException("Cannot make a TLS trust manager: " + e.getMessage(), e);
    }
    install(read);
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
    return new TlsMaterial(cert, key, ca, read(cert, key, ca));
  }

  /**
   * Reads the files given to {@link #load} again and, if their contents changed and are usable,
   * puts them in place.
   *
   * @return whether new material was put in place (false: the files are as last read)
   * @throws IOException naming the file that cannot be read or is not usable (or a key that does
   *     not match its certificate); the material in place is kept
   */
  public synchronized boolean reload() throws IOException {
    Contents read = read(certFile, keyFile, caFile);
    if (MessageDigest.isEqual(read.digest, current.digest)) {
      return false;
    }
    install(read);
    return true;
  }

  private synchronized void install(Contents read) {
    if (keyManager != null) {
      keyManager.updateIdentityCredentials(read.chain, read.key);
    }
    if (caTrust != null) {
      try {
        caTrust.updateTrustCredentials(read.trusted);
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalStateException("Cannot hold the TLS CA in memory: " + e.getMessage(), e);
      }
    }
    current = read;
  }

  private static Contents read(Path cert, Path key, Path ca) throws IOException {
    MessageDigest digest = sha256();
    X509Certificate[] chain = null;
    PrivateKey privateKey = null;
    if (cert != null) {
      chain = certificates(cert, digest).toArray(new X509Certificate[0]);
      privateKey = privateKey(key, digest);
      checkPair(chain[0], privateKey, cert, key);
    }
    X509Certificate[] trusted = ca == null ? new X509Certificate[0]
        : certificates(ca, digest).toArray(new X509Certificate[0]);
    return new Contents(digest.digest(), chain, privateKey, trusted);
  }

  /** Whether there is a certificate and key to show to the peer. */
  public boolean hasIdentity() {
    return keyManager != null;
  }

  /** Whether a CA was given (else a client trusts the JDK's defaults, a server no client). */
  public boolean hasTrustedCa() {
    return caTrust != null;
  }

  /**
   * The identity's key manager, the same instance on every call (it follows {@link #reload});
   * null without an identity.
   */
  public X509KeyManager keyManager() {
    return keyManager;
  }

  /**
   * The trust manager: with a CA, the same instance on every call (it follows {@link #reload});
   * without one, the JDK's defaults.
   */
  public X509TrustManager trustManager() {
    if (caTrust != null) {
      return caTrust;
    }
    try {
      TrustManagerFactory f = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      f.init((KeyStore) null);
      for (TrustManager m : f.getTrustManagers()) {
        if (m instanceof X509TrustManager x) {
          return x;
        }
      }
      throw new IllegalStateException("The JDK made no X509TrustManager");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot load the JDK's trusted CAs: " + e.getMessage(), e);
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
    if (keyManager == null) {
      throw new IllegalStateException("A TLS server needs a certificate and its private key");
    }
  }

  private static List<X509Certificate> certificates(Path file, MessageDigest digest)
      throws IOException {
    List<X509Certificate> out = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    try (Reader r = contents(file, digest); PEMParser pem = new PEMParser(r)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof X509CertificateHolder h) {
          out.add(converter.getCertificate(h));
        }
      }
    } catch (CertificateException | IOException | RuntimeException e) {
      // Malformed PEM shows as an IOException that does not name the file.
      throw new IOException("Cannot read the certificates in " + file + ": " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IOException("No PEM certificate (-----BEGIN CERTIFICATE-----) in " + file);
    }
    return List.copyOf(out);
  }

  private static PrivateKey privateKey(Path file, MessageDigest digest) throws IOException {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    try (Reader r = contents(file, digest); PEMParser pem = new PEMParser(r)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
        if (o instanceof PEMKeyPair pair) {
          return converter.getPrivateKey(pair.getPrivateKeyInfo());
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException("Cannot read the private key in " + file + ": " + e.getMessage(), e);
    }
    throw new IOException("No unencrypted PEM private key (-----BEGIN PRIVATE KEY----- or "
        + "-----BEGIN RSA/EC PRIVATE KEY-----) in " + file);
  }

  /** The file's bytes as text, added to {@code digest} (with its length, so files do not run together). */
  private static Reader contents(Path file, MessageDigest digest) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(bytes.length).array());
    digest.update(bytes);
    return new StringReader(new String(bytes, StandardCharsets.US_ASCII));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK has no SHA-256", e);
    }
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
  public synchronized String toString() {
    return "TlsMaterial[identity=" + (current.chain == null ? "none"
        : current.chain[0].getSubjectX500Principal().getName()) + ", trusted CAs="
        + current.trusted.length + "]";
  }
}
