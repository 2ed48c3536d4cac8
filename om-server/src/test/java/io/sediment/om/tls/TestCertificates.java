package io.sediment.om.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates made at test time (EC P-256), written as PEM files into a directory: a CA, and
 * server and client certificates it signs. No private key is ever committed.
 */
public final class TestCertificates {

  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  /** One certificate and its key, as PEM files. */
  public record Pem(Path cert, Path key) {}

  private final Path dir;
  private final String caName;
  private final KeyPair caKeys;
  private final X500Name caSubject;
  private final Pem ca;

  private TestCertificates(Path dir, String caName) throws IOException {
    this.dir = dir;
    this.caName = caName;
    this.caKeys = newKeys();
    this.caSubject = new X500Name("CN=" + caName);
    Instant now = Instant.now();
    X509CertificateHolder cert = sign(caSubject, caKeys, caSubject, caKeys,
        now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)), true, null);
    this.ca = write(caName, cert, caKeys);
  }

  /** A new CA named {@code caName}, its files under {@code dir}. */
  public static TestCertificates newCa(Path dir, String caName) {
    try {
      Files.createDirectories(dir);
      return new TestCertificates(dir, caName);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The CA's certificate (what peers trust) and key. */
  public Pem ca() {
    return ca;
  }

  /** A server certificate for localhost and 127.0.0.1, valid from an hour ago for a day. */
  public Pem server(String name) {
    Instant now = Instant.now();
    return issue(name, now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)));
  }

  /** A client certificate (also usable as a server's: the same names), valid for a day. */
  public Pem client(String name) {
    return server(name);
  }

  /** A server certificate for localhost and 127.0.0.1 that expired an hour ago. */
  public Pem expired(String name) {
    Instant now = Instant.now();
    return issue(name, now.minus(Duration.ofDays(2)), now.minus(Duration.ofHours(1)));
  }

  /**
   * A server certificate for localhost and 127.0.0.1 with an RSA key written in its traditional
   * PKCS#1 form ({@code BEGIN RSA PRIVATE KEY}, as older openssl versions write), valid for a day.
   */
  public Pem serverWithPkcs1Key(String name) {
    Instant now = Instant.now();
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return issue(name, new X500Name("CN=" + name), now.minus(Duration.ofHours(1)),
          now.plus(Duration.ofDays(1)), g.generateKeyPair());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A client certificate valid for a day whose subject is {@code subject} (an X.500 name such as
   * {@code O=Example,C=DE}), its files named after {@code fileName}.
   */
  public Pem clientWithSubject(String fileName, String subject) {
    Instant now = Instant.now();
    return issue(fileName, new X500Name(subject), now.minus(Duration.ofHours(1)),
        now.plus(Duration.ofDays(1)), newKeys());
  }

  private Pem issue(String name, Instant from, Instant to) {
    return issue(name, new X500Name("CN=" + name), from, to, newKeys());
  }

  private Pem issue(String name, X500Name subject, Instant from, Instant to, KeyPair keys) {
    try {
      GeneralNames names = new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.dNSName, "localhost"),
          new GeneralName(GeneralName.iPAddress, "127.0.0.1")});
      X509CertificateHolder cert = sign(subject, keys, caSubject, caKeys, from,
          to, false, names);
      return write(caName + "-" + name, cert, keys);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static X509CertificateHolder sign(X500Name subject, KeyPair keys, X500Name issuer,
      KeyPair issuerKeys, Instant from, Instant to, boolean isCa, GeneralNames names)
      throws IOException {
    JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(from), Date.from(to), subject,
        keys.getPublic());
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
    if (isCa) {
      b.addExtension(Extension.keyUsage, true,
          new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } else {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      b.addExtension(Extension.subjectAlternativeName, false, names);
    }
    try {
      return b.build(new JcaContentSignerBuilder("SHA256withECDSA")
          .build(issuerKeys.getPrivate()));
    } catch (OperatorCreationException e) {
      throw new IOException(e);
    }
  }

  private Pem write(String name, X509CertificateHolder cert, KeyPair keys) throws IOException {
    Path certFile = dir.resolve(name + ".crt");
    Path keyFile = dir.resolve(name + ".key");
    Files.writeString(certFile, pem(cert));
    // EC keys as PKCS#8 (what openssl genpkey writes); RSA keys in the traditional PKCS#1 form.
    Files.writeString(keyFile, keys.getPrivate().getAlgorithm().equals("RSA")
        ? pem(keys.getPrivate())
        : pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(keys.getPrivate(), null)
            .generate()));
    return new Pem(certFile, keyFile);
  }

  private static String pem(Object o) throws IOException {
    StringWriter s = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(s)) {
      w.writeObject(o);
    }
    return s.toString();
  }

  private static KeyPair newKeys() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
